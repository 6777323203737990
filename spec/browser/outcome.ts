/** One scenario's result as the page and the Worker hand it back (plain JSON). */
export interface ScenarioOutcome {
  name: string;
  passed: boolean;
  /** Why it failed (an error's name and message). */
  detail?: string;
}
