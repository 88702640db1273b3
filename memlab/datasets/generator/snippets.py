"""Code the sessions paste: snippets per language, shell commands, SQL, result tables.

Placeholders: ``{comp}``, ``{Comp}`` (capitalised), ``{fn}``; tables use
``{a}``…``{f}``, always durations with one decimal (never a value a fact states).
"""
# ruff: noqa: E501

from __future__ import annotations

CODE = {
    "ts": (
        (
            "ts",
            'export async function {fn}(input: {Comp}Input): Promise<{Comp}Result> {\n  const parsed = {comp}Schema.parse(input);\n  return db.transaction(async (tx) => {\n    const row = await tx.query(sql`select * from {comp}_jobs where id = ${parsed.id}`);\n    if (!row) throw new NotFoundError("{comp}", parsed.id);\n    return toResult(row);\n  });\n}',
        ),
        (
            "ts",
            'const client = new {Comp}Client({\n  baseUrl: config.{comp}.url,\n  retry: { attempts: config.{comp}.attempts, backoff: "exponential" },\n});\nawait client.{fn}({ dryRun: true });',
        ),
        (
            "ts",
            'it("keeps the {comp} response stable", async () => {\n  const res = await app.inject({ method: "GET", url: "/{comp}/status" });\n  expect(res.statusCode).toBe(200);\n  expect(res.json()).toMatchSnapshot();\n});',
        ),
        (
            "ts",
            'type {Comp}Event =\n  | { type: "created"; id: string }\n  | { type: "updated"; id: string; fields: string[] }\n  | { type: "deleted"; id: string };',
        ),
    ),
    "py": (
        (
            "python",
            'def {fn}(frame: pd.DataFrame) -> pd.DataFrame:\n    """Drop rows the {comp} step cannot use."""\n    mask = frame["event_ts"].notna() & frame["entity_id"].notna()\n    return frame.loc[mask].sort_values("event_ts")',
        ),
        (
            "python",
            'with dag:\n    extract = PythonOperator(task_id="{comp}_extract", python_callable={fn})\n    load = PythonOperator(task_id="{comp}_load", python_callable=load_partition)\n    extract >> load',
        ),
        (
            "python",
            '@pytest.mark.parametrize("rows", [0, 1, 1000])\ndef test_{comp}_{fn}(rows, tmp_path):\n    frame = make_frame(rows)\n    out = {fn}(frame)\n    assert len(out) <= rows',
        ),
        (
            "python",
            'class {Comp}Settings(BaseSettings):\n    bucket: str\n    partitions: int = 16\n    dry_run: bool = False\n\n    model_config = SettingsConfigDict(env_prefix="{comp}_")',
        ),
    ),
    "go": (
        (
            "go",
            'func (s *{Comp}Service) {Fn}(ctx context.Context, id string) error {\n\trec, err := s.store.Get(ctx, id)\n\tif err != nil {\n\t\treturn fmt.Errorf("{comp}: get %s: %w", id, err)\n\t}\n\treturn s.bus.Publish(ctx, "{comp}.updated", rec)\n}',
        ),
        (
            "go",
            'func Test{Comp}{Fn}(t *testing.T) {\n\tt.Parallel()\n\tsvc := new{Comp}Service(t)\n\tif err := svc.{Fn}(context.Background(), "dev-01"); err != nil {\n\t\tt.Fatal(err)\n\t}\n}',
        ),
        (
            "go",
            'select {\ncase msg := <-in:\n\tif err := handle(ctx, msg); err != nil {\n\t\tlog.Warn("{comp}: dropped message", zap.Error(err))\n\t}\ncase <-ctx.Done():\n\treturn ctx.Err()\n}',
        ),
        (
            "go",
            'type {Comp}Reading struct {\n\tDeviceID string    `json:"device_id"`\n\tAt       time.Time `json:"at"`\n\tBattery  int       `json:"battery"`\n}',
        ),
    ),
}
SHELL = (
    "git log --oneline -- {path} | head -20",
    "git bisect start HEAD {sha} -- {path}",
    'rg -n "TODO|FIXME" {path}',
    "docker compose logs -f --tail 200 {comp}",
    "kubectl -n {comp} get pods -o wide",
    "make lint && make typecheck",
)
SQL = (
    "select status, count(*)\nfrom {comp}_jobs\nwhere created_at > now() - interval '1 day'\ngroup by status;",
    "explain analyze\nselect *\nfrom {comp}_events\nwhere entity_id = $1\norder by created_at desc\nlimit 50;",
)
LEAD_INS = (
    "The snippet we ended up with:",
    "For reference, the current shape of it:",
    "What the code looks like after the change:",
    "Handy while debugging:",
    "Used this to check:",
)
TABLES = (
    (
        "| case | before | after |",
        "|---|---|---|",
        "| cold start | {a} ms | {b} ms |",
        "| warm path | {c} ms | {d} ms |",
        "| p99 | {e} ms | {f} ms |",
    ),
    (
        "| option | effort | risk |",
        "|---|---|---|",
        "| patch in place | low | medium |",
        "| new module | high | low |",
        "| do nothing | none | high |",
    ),
    (
        "| run | duration | result |",
        "|---|---|---|",
        "| 1 | {a} s | pass |",
        "| 2 | {b} s | fail |",
        "| 3 | {c} s | pass |",
    ),
)
FUNCTIONS = (
    "loadBatch",
    "applyChanges",
    "reconcile",
    "validate",
    "flushPending",
    "collect",
    "prune",
)
