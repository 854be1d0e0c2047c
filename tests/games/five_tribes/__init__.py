"""Five Tribes rule tests: worked examples (§9), rules, Djinns, movement, API, golden games."""
