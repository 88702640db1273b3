"""Phrasing pools for the unlabelled text of session logs (English and Chinese).

Placeholders: ``{comp}`` / ``{comp2}`` components, ``{topic}``, ``{person}``,
``{day}`` (a weekday of an earlier session), ``{pr}`` (a pull request number),
``{n}`` (a small count), ``{dur}`` (a duration with a decimal, never a value a
fact states). No line here states a fact any query asks about.
"""

from __future__ import annotations

VERBS = (
    "Debug",
    "Fix",
    "Refactor",
    "Investigate",
    "Review",
    "Tune",
    "Document",
    "Clean up",
    "Plan",
    "Ship",
    "Harden",
    "Profile",
    "Untangle",
    "Speed up",
)

GOALS = (
    "{topic} in {comp}.",
    "understand the {topic} problem in {comp} and {comp2}.",
    "help the user with {topic} in {comp}.",
    "finish the {topic} work in {comp}.",
    "review {comp} before the next release.",
)
OPENERS = (
    "Worked on {topic} in {comp} today.",
    "Spent the session on {comp}, mostly {topic}.",
    "Continued the {topic} work in {comp} from {day}.",
    "Short session: looked at {topic} around {comp}.",
    "Paired with {person} on {comp} {topic}.",
    "Picked up where we left off on {day} with {comp}.",
    "The user asked for help with {topic} in {comp}.",
    "Mostly reading code in {comp} and {comp2} to understand the {topic} problem.",
)
MIDDLES = (
    "Most of the time went into reading the existing code before changing anything.",
    "We found two places where {comp} and {comp2} disagree about the contract.",
    "The change is smaller than expected once the tests were in place.",
    "A good part of the session was waiting for CI.",
    "{person} had context from an earlier incident, which saved time.",
    "The first idea did not work, the second one is cleaner anyway.",
    "Nothing is deployed yet; the branch is pushed for review.",
    "We wrote down the open questions instead of guessing.",
)
CLOSERS = (
    "Next time: finish the review comments.",
    "Left a note for {person}.",
    "To be continued.",
    "Good progress overall.",
    "Still unsure about the edge cases.",
    "Will check the dashboards tomorrow.",
)

ACTIVITIES = (
    "Reviewed PR #{pr} for {comp}; small comments only.",
    "Ran the full test suite, {n} tests skipped as usual.",
    "Renamed a few variables in {comp} for clarity.",
    "Split a long function in {comp} into smaller helpers.",
    "Looked at a flaky assertion in {comp} and could not reproduce it.",
    "Cleaned up TODO comments in {comp}.",
    "Updated dependencies in {comp}; lockfile churn only.",
    "Talked through naming for a new {comp} module with {person}.",
    "Wrote a short design note on {topic} for {comp}.",
    "Added logging around the {topic} code path in {comp}.",
    "Answered a question from {person} about {comp2}.",
    "Read the {comp2} client code to see how it calls {comp}.",
    "Closed two stale issues about {topic}.",
    "Rebased the {comp} branch onto main and fixed conflicts.",
    "The user was away for part of the session.",
    "Removed dead code in {comp} that nothing imports any more.",
    "Drafted the release notes for the {comp} changes.",
    "Compared two approaches to {topic}; wrote both down.",
    "Went through the {comp} error handling and tightened a few catch blocks.",
    "Checked the {comp} metrics after the change; nothing unusual.",
    "Reproduced the bug with a unit test before touching {comp}.",
    "Moved shared helpers from {comp} into a common package.",
    "Left review comments on the {comp2} migration.",
    "Sketched a sequence diagram of {comp} talking to {comp2}.",
    "Spent a while on a confusing type error in {comp}; it was a missing generic.",
    "Added a regression test for the {topic} case in {comp}.",
    "Benchmarked the {comp} hot path before and after, numbers below.",
    "Asked {person} whether {comp2} can tolerate the change.",
)

QUESTIONS = (
    "Should {comp} own the {topic} logic, or {comp2}?",
    "Is the {topic} behaviour in {comp} documented anywhere?",
    "Do we need a migration for this, or can {comp} read both shapes?",
    "Who else depends on this part of {comp}?",
    "Can we drop the compatibility shim in {comp2} yet?",
)

NEXT_STEPS = (
    "Follow up on {comp} {topic} next session.",
    "Check CI after the merge.",
    "Ask {person} about the {comp2} edge cases.",
    "Write the missing tests for {comp}.",
    "Nothing planned.",
    "Open a ticket for the {topic} cleanup.",
    "Re-run the benchmark on a quiet machine.",
)

COREFERENCE = (
    "Applied the fix from {day} to {comp2} as well; same symptom there.",
    "The workaround from {day} still holds, no need to revisit.",
    "Same flaky test as on {day}, it passed on retry again.",
    "As discussed on {day}, {comp} keeps its current interface for now.",
    "The approach we tried on {day} was reverted; too invasive.",
    "{person} confirmed the change from {day} looks fine in staging.",
)


ZH_SUMMARIES = (
    "今天主要在看 {comp} 的代码，关于 {topic} 还没有结论。",
    "和 {person} 一起排查了 {comp} 的问题，先记录一下现象。",
    "继续 {day} 的工作，{comp} 那边的改动已经提交评审。",
    "这次会话主要是读代码，顺便整理了 {comp2} 的调用关系。",
)
ZH_ACTIVITIES = (
    "和用户讨论了 {comp} 模块的命名，暂时没有改动。",
    "用户问了一个关于类型提示的问题，已经解释清楚。",
    "把 {comp} 里重复的辅助函数挪到了公共模块。",
    "补了几个 {comp} 的单元测试，覆盖边界情况。",
    "{comp2} 的文档有点过时，之后再更新。",
    "跑了一遍完整的测试，全部通过。",
    "评审了 {person} 提交的代码，只有一些小意见。",
    "{comp} 的日志太多了，考虑降低一些级别。",
)
ZH_SECTIONS = ("备注", "记录", "进展", "待办")
