"""Chinese notes and queries ("cjk"): where a trigram tokenizer matters.

Keyword queries ("邮件模板 放在哪个目录") hold a piece of three or more characters that
occurs inside a longer run of Chinese in the note: unicode61 indexes the whole run as
one token and misses it, a trigram index finds it. Natural questions without spaces
(tag ``no-spaces``) and English questions (``cross-language``) need more than that.
"""
# ruff: noqa: E501

from __future__ import annotations

import random

from memlab.datasets.generator.spec import GLOBAL, SESSION, Catalog, Note, QuerySpec

# (key, where, note, keyword query, answer term, natural question or "", English query or "")
# fmt: off
CJK: tuple[tuple[str, str, str, str, str, str, str], ...] = (
    ("C01", SESSION, "邮件模板放在 notifier/templates 目录下，修改后需要重新构建镜像。", "邮件模板 放在哪个目录", "notifier/templates", "", ""),
    ("C02", SESSION, "退款超过30天需要财务审批，不能走自动流程。", "退款超过30天 需要谁审批", "财务审批", "超过30天的退款需要谁审批", ""),
    ("C03", SESSION, "本地端口被占用时，先用 `lsof -i :5432` 找到占用的进程。", "端口被占用 怎么查", "lsof -i :5432", "", ""),
    ("C04", SESSION, "数据库备份每天做一次，保留七天；月度备份保留一年。", "数据库备份 保留多久", "月度备份保留一年", "数据库的备份一般保留多长时间", "how long are database backups kept"),
    ("C05", SESSION, "新同事入职先看 docs/onboarding.md，然后再跑 make dev。", "新同事入职 先看什么", "docs/onboarding.md", "", ""),
    ("C06", SESSION, "汇率显示不对是前端四舍五入造成的，后端数据没有问题。", "汇率显示不对 什么原因", "前端四舍五入", "", ""),
    ("C07", SESSION, "`pnpm build` 之前要设置 NODE_OPTIONS=--max-old-space-size=4096，否则会内存溢出。", "pnpm build 内存溢出怎么办", "max-old-space-size", "", ""),
    ("C08", SESSION, "商户对账单每月一号自动发到商户邮箱。", "商户对账单 什么时候发", "每月一号", "", ""),
    ("C09", SESSION, "报表查询必须走只读副本 ll-db-replica-2，不要连主库。", "报表查询 连哪个数据库", "ll-db-replica-2", "", ""),
    ("C10", SESSION, "修改风控规则需要两个人审核，并写进周报。", "修改风控规则 流程", "两个人审核", "", ""),
    ("C11", SESSION, "测试环境的短信验证码固定是 000000。", "测试环境 短信验证码", "000000", "", "what is the SMS verification code on the test environment"),
    ("C12", SESSION, "日志里的 trace_id 可以在 Grafana Tempo 里搜索整条调用链。", "trace_id 调用链", "Grafana Tempo", "", ""),
    ("C13", SESSION, "跨境付款需要额外填写付款用途代码（purpose code）。", "跨境付款 额外信息", "purpose code", "", ""),
    ("C14", SESSION, "合作方沙箱每周日晚上重置，数据不会保留。", "合作方沙箱 多久重置", "每周日晚上重置", "", ""),
    ("C15", SESSION, "提交代码时会跑 lint-staged，失败了不要用 --no-verify 跳过。", "lint-staged 失败 能跳过吗", "--no-verify", "", ""),
    ("C16", SESSION, "为了避免缓存雪崩，所有缓存键的过期时间都加了 0 到 60 秒的随机抖动。", "缓存雪崩 怎么避免", "随机抖动", "怎么避免缓存同时过期", ""),
    ("C17", SESSION, "客服后台的导出功能只对管理员开放。", "客服后台 导出功能 谁能用", "只对管理员开放", "", ""),
    ("C18", SESSION, "支付回调的签名密钥每个季度轮换一次。", "支付回调 签名密钥 多久轮换一次", "每个季度轮换", "", ""),
    ("C19", SESSION, "性能测试结果放在 perf/results 目录，按日期命名。", "性能测试结果 放在哪", "perf/results", "", ""),
    ("C20", GLOBAL, "与产品经理沟通时用中文，代码注释一律用英文。", "产品经理 沟通语言", "代码注释一律用英文", "", "which language do I use when talking to the product manager"),
)
# fmt: on

PARTIAL = {"C12": (("E13", 1),)}


def _mixed(text: str) -> bool:
    return any(ch.isascii() and ch.isalpha() for ch in text)


def build(rng: random.Random) -> Catalog:
    del rng
    cat = Catalog()
    for key, where, text, query, term, natural, english in CJK:
        section = "Preferences" if where == GLOBAL else "Notes"
        cat.notes.append(Note(key, text, where=where, section=section))
        targets = ((key, 2), *PARTIAL.get(key, ()))
        tags = ("zh", "mixed-script") if _mixed(query) else ("zh",)
        cat.queries.append(QuerySpec(query, "cjk", targets, tags=tags, answer_terms=(term,)))
        if natural:
            cat.queries.append(
                QuerySpec(natural, "cjk", targets, tags=("zh", "no-spaces"), answer_terms=(term,))
            )
        if english:
            cat.queries.append(
                QuerySpec(english, "cjk", targets, tags=("cross-language",), answer_terms=(term,))
            )
    return cat
