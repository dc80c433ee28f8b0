"""Comparison reports: a pure function from stored records to Markdown and HTML.

Both formats give the answer first, on one screen: the study's question, its lead sentences
(a built-in study's own first, then the answer generated for any study: wrong answers, the
ranking with the groups no test separates, the best per problem, the virtual best solver and
each configuration's marginal contribution — ``report.answer``), the findings table (one row
per claim, the built-in study's and the study file's own ``[[claims]]``: sizes confirmed /
contradicted / not confirmed / too little data, adjusted p; the per-size tests one click
away), the anytime table where runs were traced, and a critical-difference chart per problem.
Below it: the per-instance table (``per_instance``), answer quality where a problem has an
objective (``quality``) and ERT against size per problem (``ert_size``). The details follow:
further observations, the legend, extra tables, each problem's summary, PAR-2, pairwise
tests, agreement and failures, and figures. Runs with a distorting harness note are left out
of all of it, and counted and named in the manifest (``distorted``).

``write_report(frame, out_dir)`` writes ``report.md`` and ``report.html`` at the folder's top,
the figures as PNG files under ``figures/`` (for reading the Markdown on a code host) and every
table as CSV under ``tables/`` (each linked from the Markdown beside the table it holds).
``report.html`` is self-contained and interactive: plotly figures with hover, legend toggling,
zoom and pan; sortable, filterable tables; plotly.js embedded (packed: gzip + base64, unpacked
by the page), so it works offline.
Summary tables stay at most 12 columns wide; native counters have a table of their own.
Each solver configuration has one short label, colour and marker for the whole report
(``series_styles``), with its full parameters in the legend table. Everything is derived
from the records and sorted, so the same records give the same files. Names and parameters
are escaped in both formats.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pandas as pd

from puzzlebench.problems.catalogue import PROBLEM_ID
from puzzlebench.problems.errors import PuzzlebenchError
from puzzlebench.records.claims import AnyClaim, Claim
from puzzlebench.records.record import NOISE_FLOOR_S, inert_table
from puzzlebench.report.answer import answer
from puzzlebench.report.anytime import anytime_sections
from puzzlebench.report.chart import Chart
from puzzlebench.report.ert_size import ert_by_size, ert_figure
from puzzlebench.report.figures import problem_charts
from puzzlebench.report.key_figure import TOP_FIGURE_HEIGHT, top_figure
from puzzlebench.report.out_folder import prepare_report_folder, subfolder, write_file
from puzzlebench.report.per_instance import per_instance_table
from puzzlebench.report.render import render, table_rows
from puzzlebench.report.series_styles import SeriesStyles
from puzzlebench.report.statistics.agreement_matrix import agreement_matrix
from puzzlebench.report.statistics.borda import borda_overall, borda_table
from puzzlebench.report.statistics.claim_tests import ClaimVerdict, claim_verdicts, claims_table, effect_text
from puzzlebench.report.statistics.count_runs import separate_counts
from puzzlebench.report.statistics.distorted import RULE, distorted_table, split_distorted
from puzzlebench.report.statistics.findings import Finding, findings_detail, findings_table, p_text
from puzzlebench.report.statistics.quality import quality_table
from puzzlebench.report.statistics.scaling import ScalingVerdict
from puzzlebench.report.statistics.scores import pairwise_tests, par2
from puzzlebench.report.summary import (
    below_floor,
    counter_table,
    run_span,
    summary_table,
    wrong_runs,
)

#: Sub-folders of a report: PNG figures, CSV tables.
FIGURES, TABLES = "figures", "tables"

#: Sentences of the narrative that open the report; the rest are in its details.
LEAD_SENTENCES = 3


def manifest(frame: pd.DataFrame, distorted: str = "",
             tuned: list[dict[str, Any]] | None = None) -> pd.DataFrame:
    """Versions, machines, seeds and limits found in the records; ``distorted`` the sentence
    on the runs left out of the statistics (``distorted.split_distorted``); how each tuned
    configuration of the study was found (``puzzlebench tune``'s record)."""
    rows: list[dict[str, Any]] = []

    def add(key: str, values: Any) -> None:
        rows.append({"item": key, "value": values})

    versions = sorted({json.dumps(v, sort_keys=True) for v in frame["versions"] if v})
    machines = sorted({json.dumps({k: m.get(k) for k in ("cpu", "cores", "system")},
                                  sort_keys=True) for m in frame["machine"] if m})
    budgets = sorted({json.dumps(b, sort_keys=True) for b in frame["budget"] if b})
    add("runs", len(frame))
    add("made", run_span(frame))
    add("studies", ", ".join(sorted({str(s) for s in frame["study"] if s})) or "-")
    add("master seeds", ", ".join(sorted({str(int(s)) for s in frame["master_seed"].dropna()}))
        or "-")
    for v in versions:
        add("versions", v)
    for m in machines:
        add("machine", m)
    for b in budgets:
        add("budget", b)
    if any('"max_nodes": ' in b and '"max_nodes": null' not in b for b in budgets):
        add("max_nodes", "counts nodes generated (children created), in every search it caps")
    for key, value in measurement_rows(frame):
        add(key, value)
    add("distorted runs", distorted or f"none ({RULE})")
    if distorted:
        add("rule", RULE)
    for entry in tuned or []:
        add("tuned configuration", tuned_text(entry))
    return pd.DataFrame(rows)


def tuned_text(entry: dict[str, Any]) -> str:
    """One tuned configuration and how it was found, in a line."""
    params = ", ".join(f"{k}={v}" for k, v in sorted(dict(entry.get("params", {})).items()))
    sizes = ", ".join(map(str, entry.get("train", [])))
    held = ", ".join(map(str, entry.get("test", [])))
    if entry.get("kept_defaults"):
        params = "the defaults, which the tuner kept"
    text = (f"{entry.get('solver', '?')} {{{params}}}: {entry.get('tuner', 'tuner not said')}, "
            f"{entry.get('objective', '?')} on {entry.get('problem', '?')} sizes {sizes}, "
            f"budget {entry.get('budget', '?')} {entry.get('budget_unit', '')}, "
            f"seed {entry.get('seed', '?')}")
    if held and "verdict" in entry:
        text += f"; held out {held}: {entry['verdict']}"
    elif held:
        text += f"; compared with the defaults in this study, on sizes {held}"
    return text


def _counted(values: pd.Series) -> str:
    counts = values.fillna("").astype(str).replace("", "not recorded").value_counts()
    return ", ".join(f"{k} ({v} runs)" for k, v in sorted(counts.items()))


def measurement_rows(frame: pd.DataFrame) -> list[tuple[str, str]]:
    """How the runs were measured: the CPU/memory source, the clock, repeats, pinning and
    workers, as the records say (docs/concepts/measurement.md)."""
    rows = []
    if "measured_by" in frame:
        rows.append(("cpu and memory measured by", _counted(frame["measured_by"])))
    if "timed_by" in frame:
        rows.append(("time stamped by", _counted(frame["timed_by"].replace(
            {"run": "the run, checked by the harness", "harness": "the harness's span"}))))
    if "clock_resolution_s" in frame and frame["clock_resolution_s"].notna().any():
        res = sorted({float(r) for r in frame["clock_resolution_s"].dropna() if r})
        rows.append(("clock", "CLOCK_MONOTONIC, resolution "
                     + ", ".join(f"{r:.0e} s" for r in res)))
    if "repeats" in frame:
        reps = frame["repeats"].fillna(1).astype(int)
        mins = sorted({float(m) for m in frame.get("min_time", pd.Series(dtype=float)).dropna()})
        if reps.max() > 1 or mins:
            rows.append(("repeats", f"to a minimum of {', '.join(f'{m:g}' for m in mins)} s of "
                         f"timed work: {reps.min()}–{reps.max()} solves per run (median "
                         f"{int(reps.median())}); time_s is the median solve"))
        else:
            rows.append(("repeats", "one solve per run"))
    low = below_floor(frame)
    rows.append(("noise floor", f"{int(low.sum())} single-shot runs below "
                 f"{NOISE_FLOOR_S * 1e3:g} ms (marked † in the summaries)"))
    if "core" in frame:
        cores = sorted({int(c) for c in frame["core"].dropna()})
        rows.append(("pinning", f"cores {', '.join(map(str, cores))}" if cores
                     else "not pinned"))
    workers = sorted({int(m["workers"]) for m in frame["machine"]
                      if isinstance(m, dict) and m.get("workers")})
    if workers:
        rows.append(("workers", ", ".join(map(str, workers))))
    if "sandbox" in frame:
        isolated = frame["isolated"] if "isolated" in frame else pd.Series(True, frame.index)
        rows.append(("sandbox", _counted(frame["sandbox"].where(isolated == True, "in-process")  # noqa: E712
                                         .replace({"namespaces": "sealed in namespaces",
                                                   "none": "not sealed"}))))
    rows += _setup_rows(frame)
    return rows


def _setup_rows(frame: pd.DataFrame) -> list[tuple[str, str]]:
    """Start-up and warm-up, untimed, beside the solve times: a solver that spends its time
    there is visible (the longest run is named)."""
    rows = []
    for column, label in (("startup_s", "start-up (untimed, incl. warm-up)"),
                          ("warmup_s", "warm-up (untimed)")):
        if column not in frame or frame[column].dropna().empty:
            continue
        values = pd.to_numeric(frame[column], errors="coerce").fillna(0.0)
        longest = values.idxmax()
        rows.append((label, f"median {values.median():.3f} s, longest {values.max():.3f} s "
                     f"({frame.at[longest, 'solver']})"))
    return rows


def _claims_shown(verdicts: list[ClaimVerdict | ScalingVerdict]) -> pd.DataFrame:
    """The claims table of the answer box: each claim, its verdict, its effect with the 95 %
    interval and its adjusted p (``tables/claims.csv`` has every column)."""
    rows = [{"claim": v.claim.says, "verdict": v.verdict,
             "effect [95% CI]": (v.effect_text() if isinstance(v, ScalingVerdict) else
                                 effect_text(v.claim, v.comparison)
                                 if v.comparison is not None and v.comparison.instances else "-"),
             "adjusted p": "-" if v.p_adjusted is None else p_text(v.p_adjusted),
             "why": v.why or "-"} for v in verdicts]
    return pd.DataFrame(rows, columns=["claim", "verdict", "effect [95% CI]", "adjusted p", "why"])


def write_report(frame: pd.DataFrame, out_dir: str | Path, *, title: str = "puzzlebench report",
                 description: str = "", narrative: list[str] | None = None,
                 extras: list[tuple[str, pd.DataFrame]] | None = None,
                 traces: pd.DataFrame | None = None,
                 shared_assets: str | Path | None = None,
                 findings: list[Finding] | None = None, lead: int = LEAD_SENTENCES,
                 claims: list[AnyClaim] | None = None, force: bool = False,
                 tuned: list[dict[str, Any]] | None = None) -> dict[str, Path]:
    """Write the report of ``frame`` (records_to_frame shape) into ``out_dir``; with ``traces``
    (``load_traces`` rows) an anytime section for the traced runs of ``frame``.

    The HTML embeds plotly.js (one self-contained file) unless ``shared_assets`` names a
    folder: the versioned bundle is then written there once and referenced relatively, so
    reports kept side by side (the committed ``reports/``) share one copy of the library.

    ``findings`` (claims tested on the runs) become the findings table at the top, followed by
    the tests of ``claims`` (a study file's own); the first ``lead`` sentences of ``narrative``
    open the report, then the generated answer; the rest of ``narrative`` goes to its details.

    ``out_dir`` must be new, empty or a folder the suite wrote (``report.out_folder``; ``force``
    replaces the report's files in a folder of other files); ReportFolderError otherwise."""
    # imported on use: the renderers load matplotlib and plotly (0.3-0.4 s), which a command
    # that only reads this package's tables or findings (``puzzlebench studies``) never needs
    from puzzlebench.report.plotly_render import (
        LOADER,
        chart_html,
        plotly_js_packed,
        write_shared_bundle,
    )
    from puzzlebench.report.png_render import PngWriter, write_pngs
    from puzzlebench.report.scaling_figure import scaling_section, scaling_styles

    # rows of the store refused (edited, or a success the judge rejects) or unsealed: said first
    store_check = frame.attrs.get("store_check") if hasattr(frame, "attrs") else None
    checked = [str(s) for s in (store_check or {}).get("sentences", [])]
    out = prepare_report_folder(out_dir, force=force)
    figures_dir, tables_dir = subfolder(out, FIGURES), subfolder(out, TABLES)
    written: list[str] = []

    def csv(table: pd.DataFrame, name: str) -> str:
        """Write a table under tables/ and give its path relative to the report."""
        text = inert_table(table).to_csv(index=False)  # formulas inert (OWASP)
        write_file(tables_dir, f"{name}.csv", text.encode())
        written.append(f"{TABLES}/{name}.csv")
        return written[-1]

    frame = separate_counts(frame)  # count runs beside solve runs: a problem of their own
    everything = frame.sort_values(["problem", "size", "instance_id", "solver", "params_key",
                                    "repeat", "seed"], kind="stable").reset_index(drop=True)
    styles = SeriesStyles.from_frame(everything)
    everything = styles.with_labels(everything)
    # the rule the report states: runs with a distorting note are counted, named, left out
    frame, excluded, distorted = split_distorted(everything)
    frame = frame.reset_index(drop=True)

    pngs = PngWriter(styles, figures_dir)

    def figure(chart: Chart) -> dict[str, str]:
        """The chart's interactive HTML now; its PNG drawn beside the rest of the report."""
        pngs.add(chart)
        return {"caption": chart.caption, "file": f"{FIGURES}/{chart.slug}.png",
                "html": chart_html(chart, styles)}

    problems = []
    borda_parts: list[pd.DataFrame] = []
    for problem in sorted(frame["problem"].unique()):
        sub = frame[frame["problem"] == problem]
        tables = {"summary": summary_table(sub), "counters": counter_table(sub),
                  "par2": par2(sub), "borda": borda_table(sub),
                  "pairwise": pairwise_tests(sub), "agreement": agreement_matrix(sub),
                  "wrong": wrong_runs(sub)}
        slug = problem.replace("-", "_")
        if PROBLEM_ID.fullmatch(problem) is None:  # file names are made of it: never a path
            raise PuzzlebenchError(f"the runs name a problem {problem[:80]!r} that is not a "
                                   "problem id; refusing to make file names of it")
        files = {name: csv(table, f"{slug}_{name}") for name, table in tables.items()}
        borda_parts.append(tables["borda"])
        figures = [figure(c) for c in problem_charts(sub, problem, styles)]
        problems.append({"name": problem, "figures": figures, "csv": files,
                         **{k: table_rows(v) for k, v in tables.items()}})
    borda_all = borda_overall(pd.concat(borda_parts) if borda_parts else pd.DataFrame())
    borda_csv = csv(borda_all, "borda") if len(problems) > 1 else ""
    rankings = answer(frame)
    generated = [sentence for r in rankings for sentence in r.sentences]  # the details
    answer_figures = [figure(r.chart) for r in rankings if r.chart is not None]
    ranking_table = pd.concat([r.table for r in rankings if len(r.table)] or [pd.DataFrame()])
    ranking_csv = csv(ranking_table, "ranking") if len(ranking_table) else ""
    man = manifest(everything, distorted, tuned)
    manifest_csv = csv(man, "manifest")
    if len(excluded):
        csv(distorted_table(excluded), "distorted")
    per_instance, quality = per_instance_table(frame), quality_table(frame)
    per_instance_csv = csv(per_instance, "per_instance")
    quality_csv = csv(quality, "quality") if len(quality) else ""
    ert = ert_by_size(frame)
    ert_csv = csv(ert, "ert_by_size")
    ert_figures = [figure(c) for c in (ert_figure(ert, p["name"]) for p in problems) if c]
    extra_tables = []
    for i, (extra_title, table) in enumerate(extras or []):
        extra_tables.append({"title": extra_title, "table": table_rows(table),
                             "csv": csv(table, f"extra_{i + 1}")})
    anytime = []
    anytime_figures: list[dict[str, str]] = []
    anytime_charts: list[Chart] = []
    narrative = list(narrative or [])
    headline = pd.DataFrame()
    anytime_notes: list[str] = []
    headline_csv = ""
    if traces is not None and (len(traces) or ("traced" in frame and frame["traced"].any())):
        sections, anytime_tables, headline, anytime_notes, anytime_charts = anytime_sections(
            traces, frame)
        headline_csv = csv(headline, "anytime_headline")
        paths = [csv(table, name) for name, table in anytime_tables]  # an ert, a scores each
        for i, sec in enumerate(sections):
            anytime.append({**sec, "ert": table_rows(sec["ert"]), "scores": table_rows(sec["scores"]),
                            "ert_csv": paths[2 * i], "scores_csv": paths[2 * i + 1]})
        anytime_figures = [figure(c) for c in anytime_charts]
    legend = styles.legend_table()
    legend_csv = csv(legend, "legend")
    plotly_src = ""
    if shared_assets is not None:
        bundle = write_shared_bundle(Path(shared_assets))
        plotly_src = Path(os.path.relpath(bundle.resolve(), out.resolve())).as_posix()
    # the study's own claims: one verdict each, Holm over them alone; a built-in study's
    # findings (the source studies' sentences) are a family of their own
    # scaling (report.scaling): models fitted to the smaller sizes, checked on the largest;
    # the scaling claims' verdicts join the claims (no Holm: they rest on no p-value)
    scaling, scaling_claims, scaling_charts = scaling_section(frame, claims or [], csv,
                                                              chart_html)
    verdicts: list[ClaimVerdict | ScalingVerdict] = [
        *claim_verdicts(frame, [c for c in claims or [] if isinstance(c, Claim)]), *scaling_claims]
    claim_table = claims_table(verdicts)
    claims_csv = csv(claim_table, "claims") if verdicts else ""
    tested = list(findings or [])
    claim_rows, per_test = findings_table(tested), findings_detail(tested)
    findings_csv = ""
    if tested:
        findings_csv = csv(claim_rows, "findings")
        csv(per_test, "findings_per_size")
    # one headline per problem in the answer box; the pooled ranking over all problems is a
    # detail (its sentences stay in the details)
    headlines = [r.headline for r in rankings if r.headline and r.scope != "all problems"]
    generated = [r.headline for r in rankings if r.headline and r.scope == "all problems"] \
        + generated
    claim_sentences = [v.sentence() for v in verdicts]
    # the key figure: the first convergence view where the traces rank anytime performance
    # (the headline has rows); else the answer's critical-difference charts answer alone
    key = anytime_figures[0] if len(headline) and anytime_figures else None
    top = top_figure(anytime_charts[0] if key else None,
                     next((r.chart for r in rankings if r.chart is not None), None),
                     lambda chart: chart_html(chart, styles, height=TOP_FIGURE_HEIGHT))
    context = {"title": title, "description": description,
               "lead": checked + narrative[:lead] + headlines,
               "claim_sentences": claim_sentences, "claims": table_rows(_claims_shown(verdicts)),
               "claims_csv": claims_csv,
               "narrative": generated + narrative[lead:] + anytime_notes
               + ([distorted] if distorted else []),
               "findings": table_rows(claim_rows),
               "findings_detail": table_rows(per_test), "findings_csv": findings_csv,
               "answer_figures": answer_figures, "ranking": table_rows(ranking_table),
               "ranking_csv": ranking_csv, "borda_csv": borda_csv,
               "manifest_csv": manifest_csv, "headline_csv": headline_csv, "legend_csv": legend_csv,
               "headline": table_rows(headline), "key_figure": key, "top_figure": top,
               "scaling_claims": len(scaling_claims),
               "legend": table_rows(legend), "loader": LOADER,
               "plotly_js": "" if plotly_src else plotly_js_packed(),
               "plotly_src": plotly_src,
               "problems": problems, "manifest": table_rows(man), "extras": extra_tables,
               "anytime": anytime, "anytime_figures": anytime_figures, "scaling": scaling,
               "per_instance": table_rows(per_instance), "per_instance_csv": per_instance_csv,
               "quality": table_rows(quality), "quality_csv": quality_csv,
               "ert_figures": ert_figures, "ert_csv": ert_csv,
               "borda_overall": table_rows(borda_all) if len(problems) > 1 else None}
    pngs.finish()
    write_pngs(scaling_charts, scaling_styles(), figures_dir)
    write_file(out, "report.md", render("report.md.j2", context).encode())
    write_file(out, "report.html", render("report.html.j2", context).encode())
    return {"markdown": Path(out_dir) / "report.md", "html": Path(out_dir) / "report.html"}

