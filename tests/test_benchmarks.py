"""`make bench` rewrites only its own tables in benchmarks/RESULTS.md: the notes written by hand stay."""
import os

from benchmarks.run import GENERATED_BEGIN, GENERATED_END, HERE, write_results


def test_a_new_bench_replaces_its_tables_and_keeps_the_notes(tmp_path):
    path = tmp_path / "RESULTS.md"
    path.write_text("## Notes of an earlier session\nkept\n")
    write_results(str(path), ["# Benchmark results", "run 1"], ["| table 1 |"])
    first = path.read_text()
    assert first.startswith(GENERATED_BEGIN) and "run 1" in first and first.endswith("kept\n")
    path.write_text(first.replace("kept\n", "kept\n## A note added by hand\nalso kept\n"))
    write_results(str(path), ["# Benchmark results", "run 2"], ["| table 2 |"])
    second = path.read_text()
    assert "run 2" in second and "| table 2 |" in second and "run 1" not in second and "| table 1 |" not in second
    assert second.count(GENERATED_BEGIN) == second.count(GENERATED_END) == 1
    assert "## Notes of an earlier session\nkept\n## A note added by hand\nalso kept\n" in second


def test_the_committed_results_have_the_markers():
    text = open(os.path.join(HERE, "RESULTS.md"), encoding="utf-8").read()
    assert text.count(GENERATED_BEGIN) == 1 and text.count(GENERATED_END) == 1
