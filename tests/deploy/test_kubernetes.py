"""Kubernetes: every manifest against the API schemas, and what the base promises.

kubernetes-validate checks each manifest in strict mode (unknown fields are errors)
against the oldest and the newest Kubernetes version the base is written for. The other
tests read the manifests as data: a restricted pod, probes that do not restart pods in a
Redis outage, a drain that fits the grace period, and names, ports and selectors that agree
between the Deployment, its Services, the autoscaler, the budget and the network policy.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import Any

import pytest

from tests.deploy.support import DEPLOY, K8S, documents, load, run, tool

BASE = K8S / "base"
SECRET_TEMPLATE = K8S / "secret.template.yaml"
VERSIONS = ("1.30.0", "1.37.0")


def manifests() -> list[Path]:
    return sorted(p for p in BASE.glob("*.yaml") if p.name != "kustomization.yaml")


def resources() -> dict[tuple[str, str], dict[str, Any]]:
    """(kind, name) -> the resource, for everything the kustomization applies."""
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for name in load(BASE / "kustomization.yaml")["resources"]:
        for doc in documents(BASE / name):
            found[(doc["kind"], doc["metadata"]["name"])] = doc
    return found


def deployment() -> dict[str, Any]:
    return resources()[("Deployment", "tribes")]


def pod() -> dict[str, Any]:
    spec: dict[str, Any] = deployment()["spec"]["template"]["spec"]
    return spec


def container() -> dict[str, Any]:
    (only,) = pod()["containers"]
    return dict(only)


def config() -> dict[str, str]:
    data: dict[str, str] = resources()[("ConfigMap", "tribes-config")]["data"]
    return data


def container_ports() -> dict[str, int]:
    return {port["name"]: port["containerPort"] for port in container()["ports"]}


@pytest.mark.parametrize("version", VERSIONS)
def test_every_manifest_passes_strict_schema_validation(version: str) -> None:
    """kubernetes-validate --strict accepts every manifest, the Secret template included."""
    files = [*map(str, manifests()), str(SECRET_TEMPLATE)]
    result = run(tool("kubernetes-validate"), "--strict", "--quiet", "-k", version, *files)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "ERROR" not in result.stdout + result.stderr


def test_schema_validation_rejects_a_misspelled_field(tmp_path: Path) -> None:
    """The validator is strict: a misspelt probe field in the Deployment fails it."""
    broken = tmp_path / "deployment.yaml"
    broken.write_text(
        (BASE / "deployment.yaml").read_text().replace("readinessProbe", "readyProbe")
    )
    result = run(tool("kubernetes-validate"), "--strict", "--quiet", "-k", VERSIONS[0], str(broken))
    assert result.returncode != 0
    assert "readyProbe" in result.stdout + result.stderr


def test_kustomize_renders_the_base_and_the_result_validates(tmp_path: Path) -> None:
    """`kubectl kustomize` builds the base into exactly its resources, which validate."""
    result = run(tool("kubectl"), "kustomize", str(BASE))
    assert result.returncode == 0, result.stderr
    rendered = tmp_path / "rendered.yaml"
    rendered.write_text(result.stdout)
    built = {(doc["kind"], doc["metadata"]["name"]) for doc in documents(rendered)}
    assert built == set(resources())
    check = run(
        tool("kubernetes-validate"), "--strict", "--quiet", "-k", VERSIONS[-1], str(rendered)
    )
    assert check.returncode == 0, check.stdout + check.stderr


def test_an_overlay_sets_namespace_and_image_as_the_readme_says(tmp_path: Path) -> None:
    """An overlay with `namespace:` and `images:` moves every resource and retags the pods."""
    overlay = tmp_path / "overlay"
    overlay.mkdir()
    (overlay / "kustomization.yaml").write_text(
        "apiVersion: kustomize.config.k8s.io/v1beta1\n"
        "kind: Kustomization\n"
        "namespace: play\n"
        f"resources: [{os.path.relpath(BASE, overlay)}]\n"
        "images: [{name: tribes, newName: registry.example/tribes, newTag: 1.2.3}]\n"
    )
    result = run(tool("kubectl"), "kustomize", str(overlay))
    assert result.returncode == 0, result.stderr
    rendered = tmp_path / "rendered.yaml"
    rendered.write_text(result.stdout)
    docs = documents(rendered)
    assert {doc["metadata"]["namespace"] for doc in docs} == {"play"}
    (deployed,) = [doc for doc in docs if doc["kind"] == "Deployment"]
    (box,) = deployed["spec"]["template"]["spec"]["containers"]
    assert box["image"] == "registry.example/tribes:1.2.3"


def test_kustomization_lists_every_manifest_and_no_secret() -> None:
    """The base applies exactly the files in base/, and no Secret (that is created apart)."""
    listed = load(BASE / "kustomization.yaml")["resources"]
    assert sorted(listed) == sorted(p.name for p in manifests())
    assert all(kind != "Secret" for kind, _ in resources())


def test_no_secret_value_is_in_the_repository() -> None:
    """The Secret template holds placeholders only, and the manifests no literal token secret."""
    (template,) = documents(SECRET_TEMPLATE)
    assert template["kind"] == "Secret" and "data" not in template
    for key, value in template["stringData"].items():
        assert re.fullmatch(r"<[^<>]+>", value), f"{key} is not a <placeholder>"
    for path in [*manifests(), DEPLOY / "compose.yaml"]:
        assert not re.search(r"TRIBES_TOKEN_SECRET\s*[:=]\s*['\"]?\w{16,}", path.read_text())


def test_pods_run_restricted() -> None:
    """Non-root, read-only root, no privilege escalation, no capabilities, RuntimeDefault."""
    spec, box = pod(), container()
    assert spec["automountServiceAccountToken"] is False
    assert (
        resources()[("ServiceAccount", spec["serviceAccountName"])]["automountServiceAccountToken"]
        is False
    )
    assert spec["securityContext"]["runAsNonRoot"] is True
    assert spec["securityContext"]["seccompProfile"] == {"type": "RuntimeDefault"}
    security = box["securityContext"]
    assert security["allowPrivilegeEscalation"] is False
    assert security["readOnlyRootFilesystem"] is True
    assert security["privileged"] is False
    assert security["capabilities"]["drop"] == ["ALL"]
    assert not security["capabilities"].get("add")


def test_pod_user_is_the_images_user() -> None:
    """runAsUser/runAsGroup are the numeric USER of the Dockerfile."""
    match = re.search(r"^USER (\d+):(\d+)$", (DEPLOY / "Dockerfile").read_text(), re.M)
    assert match, "the Dockerfile's USER must be numeric uid:gid"
    security = pod()["securityContext"]
    assert (security["runAsUser"], security["runAsGroup"]) == tuple(map(int, match.groups()))
    assert security["runAsUser"] != 0


def test_only_tmp_is_writable() -> None:
    """The read-only root gets one writable emptyDir, at /tmp, with a size limit."""
    (mount,) = container()["volumeMounts"]
    assert mount["mountPath"] == "/tmp"
    (volume,) = pod()["volumes"]
    assert volume["name"] == mount["name"]
    assert volume["emptyDir"]["sizeLimit"]


def test_service_links_are_off() -> None:
    """No TRIBES_PORT=tcp://... from the Service named `tribes` in the environment."""
    assert pod()["enableServiceLinks"] is False


def test_readiness_follows_the_store_and_liveness_does_not() -> None:
    """Readiness is gRPC health of tribes.v1.GameService; liveness and start-up never use it."""
    box = container()
    readiness = box["readinessProbe"]["grpc"]
    assert readiness == {"port": container_ports()["grpc"], "service": "tribes.v1.GameService"}
    for probe in ("livenessProbe", "startupProbe"):
        # gRPC health of "" and of the service both turn NOT_SERVING without Redis
        assert "grpc" not in box[probe], probe
        assert box[probe]["httpGet"] == {"path": "/healthz", "port": "http"}, probe


def test_grace_period_covers_pre_stop_and_drain() -> None:
    """terminationGracePeriodSeconds > preStop sleep + TRIBES_GRACE_SECONDS, with room."""
    command = container()["lifecycle"]["preStop"]["exec"]["command"]
    assert command[0] == "sleep"
    pre_stop = float(command[1])
    drain = float(config()["TRIBES_GRACE_SECONDS"])
    assert pre_stop > 0 and drain > 0
    assert pod()["terminationGracePeriodSeconds"] >= pre_stop + drain + 2


def test_requests_and_limits_are_set() -> None:
    """CPU and memory have requests and limits; no limit is below its request."""
    limits, requests = container()["resources"]["limits"], container()["resources"]["requests"]
    assert {"cpu", "memory"} <= set(requests) and {"cpu", "memory"} <= set(limits)
    assert quantity(limits["memory"]) >= quantity(requests["memory"])
    assert quantity(limits["cpu"]) >= quantity(requests["cpu"])


def quantity(text: str) -> float:
    units = {"m": 1e-3, "Ki": 2**10, "Mi": 2**20, "Gi": 2**30, "": 1.0}
    number, unit = re.fullmatch(r"([\d.]+)(m|Ki|Mi|Gi|)", str(text)).groups()  # type: ignore[union-attr]
    return float(number) * units[unit]


def test_config_ports_match_the_container_and_the_metrics_annotation() -> None:
    """The ConfigMap's ports are the container's ports, and Prometheus scrapes the right one."""
    ports = container_ports()
    assert int(config()["TRIBES_PORT"]) == ports["grpc"]
    assert int(config()["TRIBES_HTTP_PORT"]) == ports["http"]
    assert int(config()["TRIBES_METRICS_PORT"]) == ports["metrics"]
    annotations = deployment()["spec"]["template"]["metadata"]["annotations"]
    assert int(annotations["prometheus.io/port"]) == ports["metrics"]
    assert config()["TRIBES_HOST"] == config()["TRIBES_HTTP_HOST"] == "0.0.0.0"


def test_redis_is_external_with_a_documented_default() -> None:
    """REDIS_URL defaults to a Service `redis` in the namespace; the base runs no Redis."""
    assert config()["REDIS_URL"] == "redis://redis:6379/0"
    assert "redis://redis:6379/0" in (BASE / "kustomization.yaml").read_text()
    assert not any("redis" in name for _, name in resources())


def test_token_secret_is_required_from_the_secret() -> None:
    """TRIBES_TOKEN_SECRET comes from the Secret's key, not optional, as in the template."""
    (entry,) = [e for e in container()["env"] if e["name"] == "TRIBES_TOKEN_SECRET"]
    ref = entry["valueFrom"]["secretKeyRef"]
    assert not ref.get("optional", False)
    (template,) = documents(SECRET_TEMPLATE)
    assert ref["name"] == template["metadata"]["name"]
    assert ref["key"] in template["stringData"]
    sources = container()["envFrom"]
    # the Secret after the ConfigMap: a REDIS_URL with a password in the Secret wins
    assert [next(iter(s)) for s in sources] == ["configMapRef", "secretRef"]


def test_selectors_and_targets_agree() -> None:
    """Services, budget and network policy select the Deployment's pods; HPA scales it."""
    labels = deployment()["spec"]["template"]["metadata"]["labels"]
    assert deployment()["spec"]["selector"]["matchLabels"] == labels
    for name in ("tribes", "tribes-headless"):
        assert resources()[("Service", name)]["spec"]["selector"] == labels
    assert (
        resources()[("PodDisruptionBudget", "tribes")]["spec"]["selector"]["matchLabels"] == labels
    )
    assert resources()[("NetworkPolicy", "tribes")]["spec"]["podSelector"]["matchLabels"] == labels
    target = resources()[("HorizontalPodAutoscaler", "tribes")]["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment()["metadata"]["name"])


def test_services_expose_named_container_ports_and_one_is_headless() -> None:
    """Both Services target existing named ports; gRPC is marked h2c; one has no cluster IP."""
    ports = container_ports()
    cluster, headless = (
        resources()[("Service", "tribes")],
        resources()[("Service", "tribes-headless")],
    )
    assert cluster["spec"]["type"] == "ClusterIP" and "clusterIP" not in cluster["spec"]
    assert headless["spec"]["clusterIP"] == "None"
    for service in (cluster, headless):
        for port in service["spec"]["ports"]:
            assert port["targetPort"] in ports
            assert port["port"] == ports[port["targetPort"]]
            if port["name"] == "grpc":
                assert port["appProtocol"] == "kubernetes.io/h2c"
    note = (BASE / "service.yaml").read_text()
    assert "round_robin" in note and "L7 proxy" in note  # the HTTP/2 balancing note


def test_autoscaler_and_budget_keep_two_pods_through_a_drain() -> None:
    """The HPA owns the replica count; at the minimum, a disruption leaves at least two pods."""
    assert "replicas" not in deployment()["spec"]
    hpa = resources()[("HorizontalPodAutoscaler", "tribes")]["spec"]
    assert hpa["maxReplicas"] > hpa["minReplicas"]
    budget = resources()[("PodDisruptionBudget", "tribes")]["spec"]
    assert hpa["minReplicas"] - budget["maxUnavailable"] >= 2
    (metric,) = hpa["metrics"]
    assert metric["resource"]["name"] == "cpu"
    strategy = deployment()["spec"]["strategy"]["rollingUpdate"]
    assert strategy["maxUnavailable"] == 0


def test_network_policy_allows_only_the_services_ports_dns_and_redis() -> None:
    """In: gRPC, HTTP, metrics (from monitoring). Out: DNS and Redis, nothing else."""
    policy = resources()[("NetworkPolicy", "tribes")]["spec"]
    assert set(policy["policyTypes"]) == {"Ingress", "Egress"}
    ingress_ports = {p["port"] for rule in policy["ingress"] for p in rule["ports"]}
    assert ingress_ports == set(container_ports())
    (metrics_rule,) = [r for r in policy["ingress"] if r.get("from")]
    assert [p["port"] for p in metrics_rule["ports"]] == ["metrics"]
    egress = {(p["port"], p["protocol"]) for rule in policy["egress"] for p in rule["ports"]}
    assert egress == {(53, "UDP"), (53, "TCP"), (6379, "TCP"), (26379, "TCP")}
