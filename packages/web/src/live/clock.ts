// A page's own clock: relative times ("processed 12 seconds ago") are computed when the page renders, so a page
// whose answers may stay the same for a while renders again on a tick to keep them true.
import { useEffect, useState } from "preact/hooks";

/** Renders the calling component again every `everyMs`; returns the time of the current render. */
export function useClock(everyMs: number): number {
  const [now, setNow] = useState(Date.now);
  useEffect(() => {
    // A hidden tab's timers are slowed by the browser; the next visible tick is right again.
    const timer = setInterval(() => setNow(Date.now()), everyMs);
    return () => clearInterval(timer);
  }, [everyMs]);
  return now;
}
