"""Cgroup backends: detection from mountinfo, the v1 backend on this machine's real hierarchies,
the v2 backend's file logic on a fake cgroup tree (this machine's v2 has no controllers)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from sandbox import Limits, cgroups
from sandbox.cgroups import CgroupV1, CgroupV2, detect_cgroups, open_own_procs, parse_mountinfo
from tests.sandbox.conftest import needs_root
from tests.slots import slot

V1_MOUNTINFO = """\
24 1 254:0 / / rw,relatime - ext4 /dev/vda rw
30 25 0:26 / /sys/fs/cgroup/cpu,cpuacct rw,nosuid - cgroup cgroup rw,cpu,cpuacct
31 25 0:27 / /sys/fs/cgroup/memory rw,nosuid - cgroup cgroup rw,memory
32 25 0:28 / /sys/fs/cgroup/pids rw,nosuid - cgroup cgroup rw,pids
33 25 0:29 / /sys/fs/cgroup/unified rw,nosuid - cgroup2 cgroup2 rw
"""


def fake_v2_tree(root: Path, own: str = "system.slice/judge.service") -> Path:
    """A cgroup2 mount in a folder: the process's own cgroup lists memory, pids and cpu."""
    service = root / own
    service.mkdir(parents=True)
    (service / "cgroup.controllers").write_text("cpuset cpu io memory pids\n")
    (service / "cgroup.subtree_control").write_text("")
    return service


def test_parse_mountinfo_finds_v1_controllers_and_v2():
    mounts = parse_mountinfo(V1_MOUNTINFO)
    assert mounts.v2 == Path("/sys/fs/cgroup/unified")
    assert mounts.v1 == {
        "cpuacct": Path("/sys/fs/cgroup/cpu,cpuacct"),
        "memory": Path("/sys/fs/cgroup/memory"),
        "pids": Path("/sys/fs/cgroup/pids"),
    }


def test_detect_prefers_v2_with_controllers(tmp_path):
    service = fake_v2_tree(tmp_path)
    mountinfo = f"40 1 0:30 / {tmp_path} rw - cgroup2 cgroup2 rw\n" + V1_MOUNTINFO
    assert detect_cgroups(mountinfo, "0::/system.slice/judge.service\n") == ("v2", service)


def test_detect_takes_v1_when_v2_has_no_controllers(tmp_path):
    (tmp_path / "cgroup.controllers").write_text("hugetlb\n")
    mountinfo = V1_MOUNTINFO.replace("/sys/fs/cgroup/unified", str(tmp_path))
    kind, where = detect_cgroups(mountinfo, "0::/\n")
    assert kind == "v1" and where["memory"] == Path("/sys/fs/cgroup/memory")


def test_detect_gives_none_without_controllers(tmp_path):
    mountinfo = "24 1 254:0 / / rw - ext4 /dev/vda rw\n"
    assert detect_cgroups(mountinfo, "0::/\n") is None


def test_v2_backend_on_fake_tree(tmp_path):
    service = fake_v2_tree(tmp_path)
    backend = CgroupV2(service, slot=3)
    # controllers enabled on the way down to the slot
    for folder in (service, service / "classjudge-sandbox", service / "classjudge-sandbox" / "slot3"):
        assert (folder / "cgroup.subtree_control").read_text() == "+memory +pids +cpu"
    procs = backend.prepare(Limits(memory_kib=65536, processes=10), extra_tasks=1)
    leaf = service / "classjudge-sandbox" / "slot3" / "run"
    assert procs == [str(leaf / "cgroup.procs").encode()]
    assert (leaf / "memory.max").read_text() == str(64 << 20)
    assert (leaf / "pids.max").read_text() == "11"
    # what the kernel would have written during the run
    (leaf / "cgroup.procs").write_text("")
    (leaf / "cpu.stat").write_text("usage_usec 1234567\nuser_usec 1000000\nsystem_usec 234567\n")
    (leaf / "memory.peak").write_text(str(50 << 20) + "\n")
    (leaf / "memory.events").write_text("low 0\nhigh 0\nmax 12\noom 1\noom_kill 1\n")
    (leaf / "pids.events").write_text("max 4\n")
    usage = backend.finish()
    assert (usage.cpu_ns, usage.peak_bytes, usage.oom_kills, usage.task_limit_hits) == (1_234_567_000, 50 << 20, 1, 4)
    # the next run gets a fresh leaf: old counters are gone
    backend.prepare(Limits(), extra_tasks=1)
    assert not (leaf / "memory.events").exists()
    backend.close()
    assert not (service / "classjudge-sandbox" / "slot3").exists()


def test_v2_backend_reports_current_memory_without_peak_file(tmp_path):
    backend = CgroupV2(fake_v2_tree(tmp_path), slot=0)
    backend.prepare(Limits(), extra_tasks=1)
    leaf = backend.leaf
    (leaf / "cpu.stat").write_text("usage_usec 5\n")
    (leaf / "memory.current").write_text("4096\n")
    (leaf / "memory.events").write_text("oom_kill 0\n")
    (leaf / "pids.events").write_text("max 0\n")
    usage = backend.finish()
    assert (usage.cpu_ns, usage.peak_bytes, usage.oom_kills) == (5000, 4096, 0)


@needs_root
def test_v1_slot_counters_and_limits():
    kind, mounts = detect_cgroups()
    if kind != "v1":
        pytest.skip("this machine does not use cgroup v1")
    backend = CgroupV1(mounts, slot=slot(905))
    try:
        procs = backend.prepare(Limits(memory_kib=32768, processes=7), extra_tasks=1)
        assert len(procs) == 3
        assert int((backend.memory / "memory.limit_in_bytes").read_text()) == 32 << 20
        assert (backend.dirs["pids"] / "pids.max").read_text().strip() == "8"
        assert backend.cpu_ns() == 0  # reset before the run
        # a process joins and burns some CPU: the counter sees it
        pid = os.fork()
        if pid == 0:
            for path in procs:
                with open(path, "w") as procs_file:
                    procs_file.write("0")
            total = 0
            for i in range(3_000_000):
                total += i
            os._exit(0)
        os.waitpid(pid, 0)
        usage = backend.finish()
        assert usage.cpu_ns > 10_000_000 and usage.oom_kills == 0
        assert backend.wait_empty(1.0)
    finally:
        backend.close()
    assert not backend.dirs["memory"].exists()


def test_v2_cpu_controller_is_optional(tmp_path):
    service = fake_v2_tree(tmp_path)
    (service / "cgroup.controllers").write_text("memory pids\n")
    assert detect_cgroups(f"40 1 0:30 / {tmp_path} rw - cgroup2 cgroup2 rw\n", "0::/system.slice/judge.service\n") == (
        "v2",
        service,
    )
    backend = CgroupV2(service, slot=1)
    assert (service / "cgroup.subtree_control").read_text() == "+memory +pids"
    backend.close()


@needs_root
def test_v1_session_leaves_are_kept_then_removed(monkeypatch):
    kind, mounts = detect_cgroups()
    if kind != "v1":
        pytest.skip("this machine does not use cgroup v1")
    monkeypatch.setattr(cgroups, "USED_LEAVES_MAX", 4)
    backend = CgroupV1(mounts, slot=slot(906))
    try:
        leaves = []
        for _ in range(5):
            backend.prepare(Limits(memory_kib=32768), extra_tasks=0, defer_removal=True)
            leaves.append(backend.memory)
        assert len(set(leaves)) == 5 and all(leaf.is_dir() for leaf in leaves)  # a fresh one per run
        assert int((leaves[-1] / "memory.limit_in_bytes").read_text()) == 32 << 20
        backend.prepare(Limits(), extra_tasks=0, defer_removal=True)  # a sixth: past the maximum
        assert [leaf.is_dir() for leaf in leaves] == [False, False, True, True, True]
        backend.remove_used()
        assert [leaf.is_dir() for leaf in leaves] == [False] * 5 and backend.memory.is_dir()
    finally:
        backend.close()
    assert not backend.dirs["memory"].exists()


def test_the_judges_own_cgroup_is_found_in_each_hierarchy(tmp_path):
    """``open_own_procs`` opens this process's ``cgroup.procs`` in the hierarchy asked for: a v1
    controller's line (among several controllers) or the unified ``0::`` line; None otherwise."""
    for folder in ("v1/judge", "v2/svc/judge"):
        (tmp_path / folder).mkdir(parents=True)
        (tmp_path / folder / "cgroup.procs").write_text("")
    proc_cgroup = "7:memory:/other\n5:cpu,pids:/judge\n0::/svc/judge\n"
    for mount, controller, expected in (("v1", "pids", "v1/judge"), ("v2", None, "v2/svc/judge")):
        fd = open_own_procs(tmp_path / mount, proc_cgroup, controller)
        assert fd is not None
        try:
            assert os.readlink(f"/proc/self/fd/{fd}") == str(tmp_path / expected / "cgroup.procs")
        finally:
            os.close(fd)
    assert open_own_procs(tmp_path / "v1", proc_cgroup, "cpuacct") is None
    assert open_own_procs(tmp_path / "v1", "7:memory:/gone\n", "memory") is None  # no such folder
