"""deploy/*.yaml against deploy/schemas/kubernetes.schema.json, offline.

The schema holds the fields the manifests use of Kubernetes' Deployment,
Service and Job and of KubeRay's ``ray.io/v1`` ``RayCluster``; these tests
check the manifests, that the schema rejects what the API server would (or
what it would silently drop), and that the Ray manifest's driver gives every
jgym server games and reaches KubeRay's head Service.
"""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Any

import pytest

jsonschema = pytest.importorskip("jsonschema")
yaml = pytest.importorskip("yaml")

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
SCHEMA = json.loads((DEPLOY / "schemas" / "kubernetes.schema.json").read_text())


def docs(name: str) -> list[dict[str, Any]]:
    return [d for d in yaml.safe_load_all((DEPLOY / name).read_text()) if d]


def errors(doc: dict[str, Any]) -> list[str]:
    v = jsonschema.Draft202012Validator(SCHEMA)
    return [e.message for e in v.iter_errors(doc)]


@pytest.mark.parametrize("name", ["kubernetes.yaml", "ray-cluster.yaml"])
def test_manifests_match_the_schema(name: str) -> None:
    found = docs(name)
    assert found, name
    for d in found:
        assert errors(d) == [], f"{name}: {d.get('kind')} {d.get('metadata', {}).get('name')}"


def _ray_cluster() -> dict[str, Any]:
    return next(d for d in docs("ray-cluster.yaml") if d["kind"] == "RayCluster")


@pytest.mark.parametrize(
    "break_it",
    [
        lambda rc: rc["spec"]["workerGroupSpecs"][0]["rayStartParams"].update({"num-cpus": 2}),
        lambda rc: rc["spec"]["workerGroupSpecs"][0].pop("groupName"),
        lambda rc: rc["spec"]["headGroupSpec"].pop("template"),
        lambda rc: rc["spec"].update({"workerGroupSpec": []}),  # a typo: the list is ...Specs
        lambda rc: rc.update({"apiVersion": "ray.io/v1alpha1"}),
        lambda rc: rc["spec"]["workerGroupSpecs"][0].update({"replicas": -1}),
        lambda rc: rc["spec"]["headGroupSpec"]["template"]["spec"]["containers"][0].update(
            {"env": [{"value": "token"}]}
        ),
    ],
)
def test_schema_rejects_broken_ray_clusters(break_it: Any) -> None:
    rc = copy.deepcopy(_ray_cluster())
    assert errors(rc) == []
    break_it(rc)
    assert errors(rc), "the schema accepted a broken RayCluster"


def test_ray_manifest_gives_every_server_games_and_finds_the_head() -> None:
    servers = next(d for d in docs("kubernetes.yaml") if d["kind"] == "Deployment")["spec"][
        "replicas"
    ]
    rc = _ray_cluster()
    job = next(d for d in docs("ray-cluster.yaml") if d["kind"] == "Job")
    script = " ".join(job["spec"]["template"]["spec"]["containers"][0]["args"])

    def flag(name: str) -> str:
        m = re.search(rf"--{name}[ =](\S+)", script)
        assert m, f"the driver has no --{name}"
        return m.group(1)

    games = int(flag("num-env-runners")) * int(flag("num-envs-per-env-runner"))
    assert games >= servers, f"{games} games for {servers} servers: some would get none"
    assert flag("ray-address").split(":")[0] == f"{rc['metadata']['name']}-head-svc"
    for name in ("token", "tls-ca"):
        flag(name)  # the credentials reach the runners through the env config
    cpus = sum(
        g["replicas"] * int(g["rayStartParams"]["num-cpus"]) for g in rc["spec"]["workerGroupSpecs"]
    )
    assert cpus >= int(flag("num-env-runners")), "more env runners than the workers' CPUs"
    for d in (rc, job):
        pods = (
            [rc["spec"]["headGroupSpec"]["template"]]
            + [g["template"] for g in rc["spec"]["workerGroupSpecs"]]
            if d is rc
            else [job["spec"]["template"]]
        )
        for pod in pods:
            for c in pod["spec"]["containers"]:
                names = {e["name"] for e in c.get("env", [])}
                assert {"RAY_AUTH_MODE", "RAY_AUTH_TOKEN"} <= names, c["name"]
