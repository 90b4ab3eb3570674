import { test } from "node:test";
import assert from "node:assert/strict";
import { isNegated, unsupportedFact } from "../../src/evaluators/facts.js";

// The fact check's reading of limits (bounds.ts): the "no" of "no more than 3.5" is a bound, not a
// negation; a bound has a direction that an answer must keep.

const PUMPS =
  "A treated water pump passes its inspection when its overall vibration velocity at every bearing is no more than 3.5 mm/s RMS, " +
  "its delivered flow at the duty head is at least 95 percent of the flow at commissioning, and its shaft seal leaks no visible water on to the floor.";
const REPORTS = "The operator shall report a failed sample no later than 24 hours after the result, and shall not exceed 30 days for the repair.";

test("limit phrases are bounds, not negations; real negations still count", () => {
  for (const bound of [
    "The limit is no more than 3.5 mm/s.",
    "The limit is not more than 3.5 mm/s.",
    "Flow shall be not less than 95 percent.",
    "Report no later than 24 hours after the result.",
    "A flow not exceeding 12 litres per second.",
    "Repairs shall not exceed 30 days.",
    "Take no fewer than twenty samples.",
    "Take at most 20 samples.",
  ])
    assert.equal(isNegated(bound), false, bound);
  for (const negation of [
    "Chlorination is not required.",
    "Lead pipe shall not be used.",
    "No lead pipe is allowed.",
    "No sample may be taken more than 24 hours late.",
    // A bound on no number keeps its "no": nothing else checks its direction.
    "The report is due no later than the end of the month.",
  ])
    assert.equal(isNegated(negation), true, negation);
});

test("fact check: a bound stated as the context states it holds; a turned bound or a changed limit does not", () => {
  const fact = (statement: string, context = PUMPS) => unsupportedFact(statement, [context], context);
  assert.equal(fact("A treated water pump passes when its vibration velocity is no more than 3.5 mm/s RMS."), null);
  assert.equal(fact("A treated water pump passes when its vibration velocity is at most 3.5 mm/s RMS."), null, "the same bound in other words");
  assert.equal(fact("A treated water pump passes when its vibration velocity is below 3.5 mm/s RMS."), null, "strict or not, the same direction");
  assert.equal(fact("The vibration velocity limit for a treated water pump is 3.5 mm/s RMS."), null, "the figure without its bound");
  assert.equal(fact("A pump must deliver no fewer than 95 percent of the flow at commissioning."), null);
  assert.equal(fact("A treated water pump passes when its vibration velocity is no less than 3.5 mm/s RMS."), "bound 3.5");
  assert.equal(fact("A treated water pump passes when its vibration velocity is more than 3.5 mm/s RMS."), "bound 3.5");
  assert.equal(fact("A pump must deliver at most 95 percent of the flow at commissioning."), "bound 95");
  assert.equal(fact("A treated water pump passes when its vibration velocity is no more than 4.5 mm/s RMS."), "number 4.5");
  assert.equal(fact("A failed sample is reported within 24 hours of the result.", REPORTS), null);
  assert.equal(fact("A failed sample is reported more than 24 hours after the result.", REPORTS), "bound 24");
  assert.equal(fact("Repairs take at most 30 days.", REPORTS), null);
  assert.equal(fact("Repairs take 30 days or more.", REPORTS), "bound 30");
  // Against a plain figure, an inclusive bound holds and a strict one does not.
  const PLAIN = "The works treated 42 megalitres on the peak day.";
  assert.equal(fact("The works treated at least 42 megalitres on the peak day.", PLAIN), null);
  assert.equal(fact("The works treated more than 42 megalitres on the peak day.", PLAIN), "bound 42");
});

test("fact check: a negation in a later clause of the context does not negate the clause the statement repeats", () => {
  const fact = (statement: string, context = PUMPS) => unsupportedFact(statement, [context], context);
  assert.equal(fact("A treated water pump passes its inspection when its vibration velocity is no more than 3.5 mm/s RMS."), null);
  assert.equal(fact("A treated water pump's shaft seal leaks visible water on to the floor."), "negation", "the clause with the 'no'");
  assert.equal(fact("A treated water pump never passes its inspection when it vibrates at every bearing."), "negation");
  const OPENING = "No valve, hydrant or meter may be painted red.";
  assert.equal(fact("Meters may be painted red.", OPENING), "negation", "a 'no' that opens the sentence governs every clause after it");
  assert.equal(fact("No meter may be painted red.", OPENING), null);
});
