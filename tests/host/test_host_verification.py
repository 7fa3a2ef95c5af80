"""The verification result read (RFC 0091) on the generated host, which does not advertise gates yet."""

from __future__ import annotations

from host.host_helpers import call


def test_a_host_without_gates_answers_the_findings_read_with_404_behind_auth(make_host):
    host = make_host()
    run = host.start_run({"workflowId": "w"})
    path = f"/v1/runs/{run.run_id}/verifications/vr-1"
    answer = call(host, "GET", path)
    assert (answer.status, answer.body["error"]) == (404, "not_found")
    assert call(host, "GET", "/v1/runs/nope/verifications/vr-1").status == 404
    assert host.handle("GET", path, {"Authorization": "Bearer wrong"}, b"").status == 401
    verifier = call(host, "GET", "/.well-known/openwop").body["multiAgent"]["executionModel"].get("verifier", {})
    assert "gates" not in verifier  # it promises no gates, so it has no results to serve
