"""Failures the sessions run into: a name, a stack trace, a cause and fixes, per language.

Each ``Failure`` renders a realistic trace for a component (``trace``); the
``causes`` and ``actions`` are phrases for the notes that explain and fix it.
An action names a unique identifier (``{id}``, drawn from ``id_pattern``) — a
helper, a setting or a flag — so the fix line is the only line that holds it.
"""
# ruff: noqa: E501

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Failure:
    key: str
    lang: str
    name: str  # how notes and questions name it ("ECONNRESET", "KeyError")
    header: str  # the first line of the trace
    frames: tuple[str, ...]  # {comp} {project} {file} {fn} {n} {m} placeholders
    job: str  # "{comp} {job} failed" — what was running
    causes: tuple[str, ...]
    actions: tuple[tuple[str, str], ...]  # (action with {id}, id pattern with {c} {C} {w} {W})


_TS = "services/{comp}/src/{file}.ts:{n}:{m}"
_PY = '  File "/app/{project}/{comp}/{file}.py", line {n}, in {fn}'
_GO = "github.com/dev/{project}/internal/{comp}.{fn}(...)\n\t/src/internal/{comp}/{file}.go:{n} +0x{m}"

# fmt: off
FAILURES: tuple[Failure, ...] = (
    # --- TypeScript (ledgerline, quarry) ---
    Failure("econnreset", "ts", "ECONNRESET", "Error: read ECONNRESET", ("    at TLSWrap.onStreamRead (node:internal/stream_base_commons:217:20)", "    at Client.request (" + _TS + ")", "    at async {fn} (" + _TS + ")"), "sync job", ("keep-alive sockets reused after the upstream had closed them", "the load balancer dropping idle connections after 60 seconds"), (("shortened the agent keep-alive with `{id}`", "{c}.keepAlive{W}Ms"), ("retrying idempotent requests once through `{id}()`", "retry{C}{W}Once"))),
    Failure("epipe", "ts", "EPIPE", "Error: write EPIPE", ("    at afterWriteDispatched (node:internal/stream_base_commons:160:15)", "    at Socket._writeGeneric (node:net:952:11)", "    at {fn} (" + _TS + ")"), "delivery worker", ("writing to a socket the partner had already closed", "a proxy closing the connection during large uploads"), (("checking the socket with `{id}()` before writing", "ensure{C}{W}Writable"), ("streaming the body through `{id}` instead of buffering", "{c}{W}Stream"))),
    Failure("typeerror", "ts", "TypeError", "TypeError: Cannot read properties of undefined (reading 'amount')", ("    at {fn} (" + _TS + ")", "    at Array.map (<anonymous>)", "    at async handler (" + _TS + ")"), "settlement run", ("a partial refund arriving before its capture", "an optional line item missing from old invoices"), (("guarding the missing line with `{id}()`", "require{C}{W}Line"), ("defaulting absent amounts in `{id}`", "{c}{W}Defaults"))),
    Failure("kafkaretries", "ts", "KafkaJSNumberOfRetriesExceeded", "KafkaJSNumberOfRetriesExceeded: Connection error: connect ECONNREFUSED 10.0.4.12:9092", ("    at RetryOperation._fn (node_modules/kafkajs/src/retry/index.js:52:23)", "    at {fn} (" + _TS + ")"), "consumer", ("the broker rolling restart outlasting the client retry budget", "a stale broker address cached by the client"), (("raising the client retry budget in `{id}`", "{c}{W}KafkaRetry"), ("refreshing broker metadata with `{id}()` on reconnect", "refresh{C}{W}Brokers"))),
    Failure("rangeerror", "ts", "RangeError", "RangeError: Maximum call stack size exceeded", ("    at {fn} (" + _TS + ")", "    at {fn} (" + _TS + ")", "    at {fn} (" + _TS + ")"), "export", ("a recursive walk over a cyclic merchant hierarchy", "deep-merging a config object that refers to itself"), (("breaking cycles with the visited set in `{id}`", "{c}{W}Visited"), ("replacing the recursion with the iterative `{id}()`", "walk{C}{W}Iteratively"))),
    Failure("uniqueviolation", "ts", "unique_violation", "error: duplicate key value violates unique constraint \"payments_idempotency_key_key\"", ("    at Parser.parseErrorMessage (node_modules/pg-protocol/src/parser.ts:369:69)", "    at {fn} (" + _TS + ")"), "import", ("two workers claiming the same idempotency key", "a retried request racing its original"), (("taking an advisory lock in `{id}()` first", "lock{C}{W}Key"), ("switching the insert to ON CONFLICT DO NOTHING via `{id}`", "{c}{W}Upsert"))),
    Failure("etimedout", "ts", "ETIMEDOUT", "Error: connect ETIMEDOUT 10.0.3.17:5432", ("    at TCPConnectWrap.afterConnect [as oncomplete] (node:net:1595:16)", "    at {fn} (" + _TS + ")"), "migration job", ("the connection pool exhausted by a long-running report query", "a security group change blocking the new subnet"), (("capping the pool per worker with `{id}`", "{c}{W}PoolMax"), ("moving the report query to the replica through `{id}()`", "use{C}{W}Replica"))),
    Failure("jsonsyntax", "ts", "SyntaxError", "SyntaxError: Unexpected token < in JSON at position 0", ("    at JSON.parse (<anonymous>)", "    at {fn} (" + _TS + ")"), "partner callback", ("an HTML error page from the partner parsed as JSON", "a maintenance page served by the CDN"), (("checking the content type in `{id}()` before parsing", "parse{C}{W}Json"), ("treating non-JSON replies as retryable via `{id}`", "{c}{W}NonJson"))),
    # --- Python (tidepool, marigold) ---
    Failure("keyerror", "py", "KeyError", "KeyError: 'customer_id'", (_PY, "    row = batch[key]", "  File \"/app/{project}/common/rows.py\", line {m}, in get", "    return self._data[name]"), "nightly DAG", ("a source table renaming its customer column", "late-arriving rows without the join key"), (("mapping old column names in `{id}`", "{c}_{w}_renames"), ("dropping rows without keys in `{id}()`", "drop_{c}_{w}_orphans"))),
    Failure("memoryerror", "py", "MemoryError", "MemoryError: Unable to allocate 7.45 GiB for an array with shape (999424, 1000)", (_PY, "    frame = frame.to_numpy()", "  File \"/usr/local/lib/python3.12/site-packages/pandas/core/frame.py\", line {m}, in to_numpy"), "feature build", ("materialising the full partition into memory", "a join exploding on duplicated keys"), (("streaming partitions through `{id}()`", "iter_{c}_{w}_chunks"), ("deduplicating keys before the join in `{id}`", "{c}_{w}_dedupe"))),
    Failure("pgclosed", "py", "OperationalError", "sqlalchemy.exc.OperationalError: (psycopg.OperationalError) server closed the connection unexpectedly", (_PY, "    session.execute(stmt)", "  File \"/usr/local/lib/python3.12/site-packages/sqlalchemy/orm/session.py\", line {m}, in execute"), "sync task", ("idle connections killed by PgBouncer after ten minutes", "the database failover during maintenance"), (("enabling pool_pre_ping through `{id}`", "{c}_{w}_pre_ping"), ("recycling connections in `{id}()`", "recycle_{c}_{w}_pool"))),
    Failure("arrowinvalid", "py", "ArrowInvalid", "pyarrow.lib.ArrowInvalid: Float value 3.5 was truncated converting to int64", (_PY, "    table = pa.Table.from_pandas(frame, schema=schema)", "  File \"pyarrow/table.pxi\", line {m}, in pyarrow.lib.Table.from_pandas"), "export", ("a score column typed as int64 in the schema", "a vendor sending fractional quantities"), (("declaring the column as float64 in `{id}`", "{c}_{w}_schema"), ("casting with `{id}()` before writing", "cast_{c}_{w}_scores"))),
    Failure("slowdown", "py", "SlowDown", "botocore.exceptions.ClientError: An error occurred (SlowDown) when calling the PutObject operation: Please reduce your request rate.", (_PY, "    s3.put_object(Bucket=bucket, Key=key, Body=body)", "  File \"/usr/local/lib/python3.12/site-packages/botocore/client.py\", line {m}, in _make_api_call"), "bulk upload", ("thousands of small objects written under one prefix", "parallel writers hammering the same partition prefix"), (("batching small files with `{id}()`", "compact_{c}_{w}_files"), ("spreading keys over hashed prefixes in `{id}`", "{c}_{w}_prefixes"))),
    Failure("connreset", "py", "ConnectionResetError", "ConnectionResetError: [Errno 104] Connection reset by peer", (_PY, "    resp = client.post(url, json=payload)", "  File \"/usr/local/lib/python3.12/site-packages/httpx/_transports/default.py\", line {m}, in handle_request"), "scoring call", ("the model server restarting during a deploy", "an idle keep-alive connection reused after the server closed it"), (("retrying with backoff in `{id}()`", "post_{c}_{w}_with_retry"), ("limiting keep-alive to 30 seconds in `{id}`", "{c}_{w}_keepalive"))),
    Failure("reindex", "py", "ValueError", "ValueError: cannot reindex on an axis with duplicate labels", (_PY, "    out = frame.reindex(index)", "  File \"/usr/local/lib/python3.12/site-packages/pandas/core/generic.py\", line {m}, in reindex"), "daily report", ("duplicate timestamps from the daylight saving switch", "a source emitting the same event twice"), (("dropping duplicate labels in `{id}()` first", "unique_{c}_{w}_index"), ("keying by event id instead of time in `{id}`", "{c}_{w}_event_key"))),
    # --- Go (beacon) ---
    Failure("nilpointer", "go", "nil pointer dereference", "panic: runtime error: invalid memory address or nil pointer dereference\n[signal SIGSEGV: segmentation violation code=0x1 addr=0x18 pc=0x7c4e12]", ("goroutine {n} [running]:", _GO, "main.main()\n\t/src/cmd/{comp}/main.go:{n} +0x{m}"), "handler", ("a device that had never reported", "an empty config section decoded into a nil map"), (("checking for a missing record in `{id}`", "{c}.Must{W}Record"), ("initialising the map in `{id}()`", "{c}.New{W}Config"))),
    Failure("deadline", "go", "context deadline exceeded", "rpc error: code = DeadlineExceeded desc = context deadline exceeded", ("goroutine {n} [running]:", _GO), "fan-out call", ("a downstream call inheriting an already short deadline", "the NATS request timeout shorter than the handler's work"), (("giving the call its own budget in `{id}`", "{c}.With{W}Budget"), ("raising the request timeout through `{id}`", "{c}.{W}RequestTimeout"))),
    Failure("connrefused", "go", "connection refused", "dial tcp 10.2.0.8:4222: connect: connection refused", ("goroutine {n} [running]:", _GO), "startup", ("the service starting before NATS was ready", "a stale DNS entry pointing at an old pod"), (("waiting for NATS in `{id}()` at startup", "{c}.WaitFor{W}Nats"), ("re-resolving addresses through `{id}`", "{c}.{W}Resolver"))),
    Failure("concurrentmap", "go", "concurrent map writes", "fatal error: concurrent map writes", ("goroutine {n} [running]:", "runtime.throw({{0x9a1b2c, 0x15}})\n\t/usr/local/go/src/runtime/panic.go:1023 +0x5c", _GO), "ingest loop", ("two goroutines updating the device cache", "the metrics registry written from handlers"), (("guarding the cache with the mutex in `{id}`", "{c}.{W}Cache"), ("switching to a sync.Map via `{id}`", "{c}.{W}Registry"))),
    Failure("x509", "go", "certificate has expired", "x509: certificate has expired or is not yet valid: current time 2026-03-02T04:10:11Z is after 2026-03-01T23:59:59Z", ("goroutine {n} [running]:", _GO), "TLS handshake", ("an intermediate certificate expiring before the leaf", "devices with clocks that never synced"), (("reloading certificates with `{id}()`", "{c}.Reload{W}Certs"), ("tolerating clock skew through `{id}`", "{c}.{W}SkewWindow"))),
    Failure("maxpayload", "go", "maximum payload exceeded", "nats: maximum payload exceeded", ("goroutine {n} [running]:", _GO), "publish", ("batched telemetry frames above the 1 MB NATS limit", "OTA manifests published inline"), (("splitting batches in `{id}()`", "{c}.Split{W}Batch"), ("publishing a reference through `{id}` instead of the blob", "{c}.{W}BlobRef"))),
    Failure("unmarshal", "go", "cannot unmarshal number", "json: cannot unmarshal number into Go struct field Reading.battery of type string", ("goroutine {n} [running]:", _GO), "decoder", ("old device software sending the battery level as a number", "a vendor changing its payload format"), (("accepting both forms in `{id}`", "{c}.{W}FlexibleString"), ("versioning the payload decoder in `{id}()`", "{c}.Decode{W}V2"))),
)
# fmt: on

BY_LANG: dict[str, tuple[Failure, ...]] = {
    lang: tuple(f for f in FAILURES if f.lang == lang) for lang in ("ts", "py", "go")
}
