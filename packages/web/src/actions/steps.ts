// A money flow's steps as a person follows them (docs/…: buying and selling, CONSOLE "Steppers for money"): each
// step done, the person's turn now, waiting on the other party (the seller, the buyer, the escrow), or later. Types
// and words only; buyer-state.ts and seller-state.ts decide the steps, stepper.tsx shows them.

/** Where a step stands. */
export type StepStatus = "done" | "now" | "waiting" | "next";

export interface StepView<Id extends string = string> {
  readonly id: Id;
  /** What the step is, in words ("Pay 500 XLM into the escrow"). */
  readonly title: string;
  readonly status: StepStatus;
  /** Where it stands, one line. */
  readonly line: string;
}

const STATUS_WORDS: Readonly<Record<StepStatus, string>> = {
  done: "Done",
  now: "Your turn",
  waiting: "Waiting on the other party",
  next: "Later",
};

/** A step's status as a screen reader and a glance read it. */
export const statusWords = (status: StepStatus): string => STATUS_WORDS[status];
