"""Unlabelled text of the session logs: titles, summaries, chatter, next steps."""

from __future__ import annotations

VERBS = ("Debug", "Refactor", "Review", "Investigate", "Clean up", "Pair on", "Document", "Tidy")
TOPICS = (
    "error handling",
    "tests",
    "logging",
    "configuration",
    "request handlers",
    "metrics",
    "retries",
    "types",
    "documentation",
    "performance",
)

SUMMARIES = (
    "Worked with the user on {topic} in {svc}.",
    "Short session about {topic} in {svc}.",
    "Continued yesterday's work on {topic} in {svc}.",
    "The user wanted a second pair of eyes on {topic} in {svc}.",
)
SUMMARIES_ZH = (
    "和用户一起看了 {svc} 的{topic_zh}。",
    "继续处理 {svc} 的{topic_zh}。",
)
TOPICS_ZH = ("错误处理", "测试", "日志", "配置", "性能")
CHATTER_SUMMARIES = (
    "Mostly chatter; no code changes.",
    "Quick check-in with the user; nothing decided.",
    "闲聊为主，没有代码改动。",
)

FILLER = (
    "Read through the {svc} handlers to refresh context.",
    "User asked for a recap of yesterday's work on {svc}.",
    "Reviewed open pull requests; nothing urgent.",
    "Spent most of the session reading {svc} logs; no conclusion yet.",
    "Tried a small refactor of the {svc} error types, then reverted it.",
    "Ran the full test suite: green.",
    "Talked through naming for a new {svc} module.",
    "Small talk about the team offsite; no action items.",
    "Updated dependencies in {svc}; lockfile churn only.",
    "Renamed a few variables in {svc} for clarity.",
    "Looked at a flaky assertion in {svc}; could not reproduce it.",
    "Answered a question about TypeScript generics.",
    "Helped the user write a regular expression for log parsing.",
    "Cleaned up TODO comments in {svc}.",
    "Split a long function in {svc} into smaller helpers.",
    "Paired on reading a stack trace from {svc}; it was a missing null check.",
    "The user was away for most of the session.",
    "Discussed whether to add more metrics to {svc}; parked for now.",
    "今天主要在看 {svc} 的代码，还没有结论。",
    "和用户讨论了 {svc} 模块的命名，没有改动。",
    "用户问了一个关于 TypeScript 类型的问题，已经解释清楚。",
)

NEXT_STEPS = (
    "Follow up on {svc} {topic} tomorrow.",
    "Check CI after the merge.",
    "Ask the user about the {svc} edge cases.",
    "Nothing planned.",
    "Continue with {topic} in {svc} next time.",
)
