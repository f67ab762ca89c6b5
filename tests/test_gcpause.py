"""The collector is off while a whole-game job runs, and back as it was after (admin/runtime/gcpause.py)."""

from __future__ import annotations

import gc

import pytest

from admin.runtime.gcpause import few_collections


def test_the_collector_is_off_inside_a_job_and_on_again_after_it_even_when_jobs_nest_or_fail() -> None:
    seen: list[bool] = []

    @few_collections
    def inner() -> None:
        seen.append(gc.isenabled())

    @few_collections
    def outer() -> None:
        inner()
        seen.append(gc.isenabled())  # the inner job ending does not switch it back on
        raise ValueError("a failing job")

    assert gc.isenabled()
    with pytest.raises(ValueError):
        outer()
    assert seen == [False, False] and gc.isenabled()


def test_a_job_run_with_the_collector_off_by_its_caller_leaves_it_off() -> None:
    gc.disable()
    try:
        few_collections(lambda: None)()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_the_update_the_site_build_and_the_mail_out_run_with_few_collections() -> None:
    from admin.jobs import update as jobs
    from admin.mail.outbound import mailout
    from admin.site import build

    wrapper = few_collections(lambda: None).__code__
    for job in (jobs.run_update_job, build.build, mailout.mail_out):
        assert job.__code__ is wrapper, job
