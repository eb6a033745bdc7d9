"""The agent: a loop that streams a model's answer, offers it the skill tools, judges every tool
run through the policy and asks an `Approver` when the policy says so. No Qt, no HTTP here."""
