"""An approver for tests that answers as told and keeps what it was asked."""

from __future__ import annotations

from studio.agent.approval import Approval, ApprovalRequest


class RecordingApprover:
    """Answers each request with the next of `answers`, the last one again once they run out, and
    keeps the requests. Given none, a request fails the test: the policy was to decide alone.

    Attributes:
        requests: what it was asked, in order.
    """

    def __init__(self, *answers: Approval) -> None:
        self.answers = list(answers)
        self.requests: list[ApprovalRequest] = []

    async def approve(self, request: ApprovalRequest) -> Approval:
        self.requests.append(request)
        if not self.answers:
            raise AssertionError(f"nothing was to be asked, but {request.command!r} was")
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
