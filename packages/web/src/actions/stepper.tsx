// A money flow's steps on the page (steps.ts): an ordered list, each step with its state in words and, while it is
// not done, the button that takes it — enabled when it makes sense now, else disabled with the reason beside it.
import type { JSX } from "preact";
import { type StepView, statusWords } from "./steps.ts";

/** A step's button: enabled when the step makes sense now, else disabled with the reason beside it. */
export function StepButton(props: {
  readonly id: string;
  readonly label: string;
  readonly step: { readonly ok: boolean; readonly why: string };
  readonly busy: boolean;
  readonly onClick: () => void;
}): JSX.Element {
  const { step } = props;
  return (
    <>
      <button
        type="button"
        disabled={props.busy || !step.ok}
        aria-describedby={step.ok ? undefined : `${props.id}-why`}
        onClick={props.onClick}
      >
        {props.label}
      </button>
      {step.ok ? null : (
        <span class="hint" id={`${props.id}-why`}>
          {step.why}
        </span>
      )}
    </>
  );
}

/** The steps in order, each with its state in words; the button of a step that is not done beside its line. */
export function Stepper(props: {
  readonly label: string;
  readonly steps: readonly StepView[];
  readonly buttons: Partial<Record<string, JSX.Element>>;
}): JSX.Element {
  return (
    <ol class="stepper" aria-label={props.label}>
      {props.steps.map((step) => {
        const button = step.status === "done" ? undefined : props.buttons[step.id];
        return (
          <li
            key={step.id}
            class={`step-${step.status}`}
            aria-current={step.status === "now" ? "step" : undefined}
            data-step={step.id}
            data-status={step.status}
          >
            <p class="step-title">
              {step.title} <span class="visually-hidden">({statusWords(step.status)})</span>
            </p>
            <p class="step-state">
              <span aria-hidden="true">{statusWords(step.status)}: </span>
              {step.line}
            </p>
            {button === undefined ? null : <div class="row">{button}</div>}
          </li>
        );
      })}
    </ol>
  );
}
