/**
 * A real tribes server for the SDK's tests: `python -m tribes` from the repository's venv,
 * on any free port (or the ones `env` names), with the embedded store (or `env`'s
 * REDIS_URL), seeds honoured, no create limit and the test
 * game `goofspiel` (tests/games/goofspiel) loaded as a plugin. Each test file starts one
 * and stops it when done. TRIBES_PYTHON names another interpreter.
 */

import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: the nearest folder above this file that holds protos/tribes. */
export function repoRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, "protos", "tribes"))) {
    const parent = dirname(dir);
    if (parent === dir) throw new Error("test: the repository root (protos/tribes) not found");
    dir = parent;
  }
  return dir;
}

export interface Server {
  readonly baseUrl: string;
  /** The last lines the server wrote to stderr (for failure messages). */
  readonly log: () => string;
  stop(): Promise<void>;
}

const BANNER = /HTTP on ([^\s,]+):(\d+)/;

export async function startServer(env: Record<string, string> = {}): Promise<Server> {
  const root = repoRoot();
  const python = process.env["TRIBES_PYTHON"] ?? join(root, ".venv", "bin", "python");
  const childEnv: Record<string, string | undefined> = {
    ...process.env,
    PYTHONPATH: [root, join(root, "service")].join(delimiter),
    TRIBES_HOST: "127.0.0.1",
    TRIBES_PORT: "0",
    TRIBES_HTTP_HOST: "127.0.0.1",
    TRIBES_HTTP_PORT: "0",
    TRIBES_METRICS_PORT: "-1",
    TRIBES_ALLOW_SEED: "1",
    TRIBES_CREATE_RATE: "0",
    TRIBES_GAME_PLUGINS: "tests.games.goofspiel.plugin",
    TRIBES_LOG_REQUESTS: "0",
    TRIBES_GRACE_SECONDS: "1",
    TRIBES_HEALTH_INTERVAL_SECONDS: "0.5",
    ...env,
  };
  // the embedded store, each test file with its own games, unless the test names a Redis
  if (env["REDIS_URL"] === undefined) delete childEnv["REDIS_URL"];
  const child = spawn(python, ["-m", "tribes"], {
    cwd: root,
    env: childEnv,
    stdio: ["ignore", "ignore", "pipe"],
  });
  const lines: string[] = [];
  const log = (): string => lines.slice(-40).join("\n");
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const baseUrl = await new Promise<string>((resolve, reject) => {
    let pending = "";
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`test server did not start in 60 s:\n${log()}`));
    }, 60_000);
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      pending += chunk;
      const parts = pending.split("\n");
      pending = parts.pop() ?? "";
      for (const line of parts) {
        lines.push(line);
        if (lines.length > 400) lines.shift();
        const match = BANNER.exec(line);
        if (match) {
          clearTimeout(timer);
          resolve(`http://${match[1]}:${match[2]}`);
        }
      }
    });
    child.once("error", (err) => {
      clearTimeout(timer);
      reject(new Error(`test server could not run ${python}: ${err.message}`));
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`test server exited (${code}) before its banner:\n${log()}`));
    });
  });
  return { baseUrl, log, stop: () => stop(child, exited) };
}

async function stop(child: ChildProcess, exited: Promise<void>): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
  await exited;
  clearTimeout(timer);
}
