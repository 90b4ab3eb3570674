import { test } from "node:test";
import assert from "node:assert/strict";
import { scatterChart } from "../../src/reports/charts.js";
import { textWidth } from "../../src/reports/text-fit.js";

/** The legend entries of a chart's SVG, each as its lines (the text of its tspans). */
function legendEntries(svg: string): string[][] {
  return [...svg.matchAll(/<text class="label legend">(.*?)<\/text>/g)].map((m) =>
    [...m[1]!.replace(/<title>.*?<\/title>/, "").matchAll(/<tspan[^>]*>(.*?)<\/tspan>/g)].map((t) => t[1]!),
  );
}

test("a numbered scatter legend gives every key in full, wrapping a key wider than the chart rather than cutting it", () => {
  const long = "semantic_parent_child@breakpoint_percentile=80:child_size=64:retrieval=hybrid:top_k=10:extra_parameter=12345";
  const keys = [long, ...Array.from({ length: 11 }, (_, i) => `recursive@chunk_size=${128 + i * 32}`)];
  const svg = scatterChart(
    "quality against cost",
    keys.map((label, i) => ({ label, x: i, y: i / 2 })),
    { x: "cost", y: "score" },
  );
  const entries = legendEntries(svg);
  assert.equal(entries.length, keys.length, "one legend entry per point");
  entries.forEach((lines, i) => {
    const joined = lines.join("").replace(/\s+/g, "");
    assert.equal(joined, `${i + 1}${keys[i]}`.replace(/\s+/g, ""), `entry ${i + 1} holds its key in full`);
    for (const line of lines) assert.ok(textWidth(line, 11) <= 640, `a legend line fits the chart: ${line}`);
  });
  assert.ok(entries[0]!.length > 1, "the long key wraps");
  assert.doesNotMatch(svg.replace(/<title>.*?<\/title>/g, ""), /…/, "nothing in the legend is cut");
});
