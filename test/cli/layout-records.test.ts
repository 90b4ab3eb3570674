import { test } from "node:test";
import assert from "node:assert/strict";
import { displayWidth, renderTable } from "../../src/transports/cli/layout.js";

const widest = (text: string) => Math.max(...text.split("\n").map(displayWidth));

test("a table that does not fit even two columns at a time is shown as records: ids and numbers whole, nothing past the width", () => {
  const head = ["id", "file", "strategy", "composite\n0-10 ↑", "created_at"];
  const rows = [
    ["exp_0123456789abcdef", "tidewater-quay-lease-renewal-2027.pdf", "semantic_parent_child", "4.61 [3.99, 5.38] (+0.01)", "2026-11-25T09:35:02.909"],
    ["exp_fedcba9876543210", "notes.txt", "recursive", "4.02 [3.50, 4.71] (-0.20)", "2026-11-25T09:35:03.001"],
  ];
  const text = renderTable(head, rows, 40);
  assert.ok(widest(text) <= 40, `a line of ${widest(text)}:\n${text}`);
  assert.ok(!text.includes("┌"), "no table frame");
  assert.equal(
    text,
    [
      "id: exp_0123456789abcdef",
      "  file: tidewater-quay-lease-",
      "    renewal-2027.pdf",
      "  strategy: semantic_parent_child",
      "  composite 0-10 ↑:",
      "    4.61 [3.99, 5.38] (+0.01)",
      "  created_at: 2026-11-25T09:35:02.909",
      "id: exp_fedcba9876543210",
      "  file: notes.txt",
      "  strategy: recursive",
      "  composite 0-10 ↑:",
      "    4.02 [3.50, 4.71] (-0.20)",
      "  created_at: 2026-11-25T09:35:03.001",
    ].join("\n"),
  );
  assert.ok(renderTable(head, rows, 80).startsWith("┌"), "at 80 columns it is a table again");
});
