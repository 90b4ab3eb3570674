// The browser side of `chunkeval ui`: documents, their extracted text and structure, and the chunks
// of several strategies or variants side by side. It talks only to the documented HTTP API (the
// same routes as any client: docs/http-api.md) and loads nothing from the network beyond this server.

const $ = (id) => document.getElementById(id);
const KEY_STORAGE = "chunkeval-api-key";
const state = { key: sessionStorage.getItem(KEY_STORAGE), document: null, columns: new Map() };

function status(message, isError = false) {
  $("status").textContent = message;
  $("status").className = isError ? "error" : "";
}

/**
 * Asks for the API key once per browser session (the server answered 401); calls waiting at once
 * share the one question. Closed without a key (Esc), the waiting calls fail and the next call asks again.
 */
let keyPrompt = null;
function askKey(refused) {
  keyPrompt ??= new Promise((resolve, reject) => {
    const dialog = $("key-dialog");
    $("key-refused").hidden = !refused;
    let given = false;
    $("key-form").onsubmit = () => {
      given = true;
      state.key = $("key").value.trim();
      sessionStorage.setItem(KEY_STORAGE, state.key);
    };
    dialog.addEventListener(
      "close",
      () => {
        keyPrompt = null;
        if (given) resolve();
        else reject(new Error("this server needs its API key (CHUNKEVAL_API_KEY): reload the page to give it"));
      },
      { once: true },
    );
    dialog.showModal();
  });
  return keyPrompt;
}

/** A call to the HTTP API: JSON in and out, the key when one was given, the server's `detail` as the error. */
async function api(path, init = {}) {
  const headers = { ...(init.headers ?? {}) };
  if (state.key) headers.authorization = `Bearer ${state.key}`;
  const response = await fetch(path, { ...init, headers }).catch((error) => {
    throw new Error(`The chunkeval server did not answer: it may have stopped (start it again with chunkeval ui, then reload this page). ${error.message}`);
  });
  if (response.status === 401) {
    await askKey(Boolean(state.key));
    return api(path, init);
  }
  const body = await response.json().catch(() => ({}));
  if (!response.ok) {
    // The server's error body says what went wrong in words (its `detail`); a proxy's or a crash's page does not.
    const said = body.detail ?? `the server answered ${response.status} ${response.statusText}${response.status >= 500 ? ": its log says why" : ""}`;
    throw Object.assign(new Error(said), { status: response.status });
  }
  return body;
}

const postJson = (path, body) => api(path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

function element(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value);
  }
  node.append(...children);
  return node;
}

async function loadDocuments(selectId) {
  const items = await listAll("/documents");
  const list = $("documents");
  list.replaceChildren(
    ...items.map((d) =>
      element(
        "li",
        {},
        element(
          "button",
          { type: "button", "data-id": d.id, "aria-current": String(d.id === state.document?.id), onclick: () => openDocument(d.id) },
          d.filename,
          element("small", {}, `${d.id} · ${d.paragraph_count ?? "?"} paragraphs`),
        ),
      ),
    ),
  );
  if (items.length === 0) list.replaceChildren(element("li", {}, "No documents yet."));
  // The first screen is up (npm run bench:ui reads this mark).
  if (performance.getEntriesByName("chunkeval:first-screen").length === 0) performance.mark("chunkeval:first-screen");
  if (selectId) await openDocument(selectId);
}

/** Uploads each file in turn; one the server refuses (a format it does not read, say) is reported and the rest go on. */
async function upload(files) {
  const chosen = [...files];
  const collection = $("collection").value.trim();
  let stored = null;
  const refused = [];
  try {
    // Into a collection: made first when it is new (POST /collections), then each file added to it as it is uploaded.
    if (collection)
      await api(`/collections/${encodeURIComponent(collection)}`).catch((error) =>
        error.status === 404 ? postJson("/collections", { name: collection }) : Promise.reject(error),
      );
  } catch (error) {
    status(`${collection}: ${error.message}`, true);
    return;
  }
  for (const [i, file] of chosen.entries()) {
    status(`Uploading ${file.name} (${i + 1} of ${chosen.length})${collection ? ` into ${collection}` : ""}…`);
    const form = new FormData();
    form.append("file", file, file.name);
    try {
      if (!collection) stored = await api("/documents", { method: "POST", body: form });
      else {
        const updated = await api(`/collections/${encodeURIComponent(collection)}/documents`, { method: "POST", body: form });
        stored = updated.documents.find((d) => d.filename === file.name) ?? updated.documents.at(-1) ?? null;
      }
    } catch (error) {
      refused.push(`${file.name}: ${error.message}`);
    }
  }
  // The document opened first: opening it clears the status line, which then says what happened.
  await loadDocuments(stored?.id);
  const done = chosen.length - refused.length;
  status(
    `Uploaded ${done} of ${chosen.length} file${chosen.length === 1 ? "" : "s"}${collection ? ` into the collection ${collection}` : ""}.` +
      (refused.length ? ` Refused: ${refused.join("; ")}` : ""),
    refused.length > 0,
  );
}

async function openDocument(id) {
  status("Loading the document…");
  let doc;
  try {
    doc = await api(`/documents/${encodeURIComponent(id)}`);
  } catch (error) {
    status(`${id}: ${error.message}`, true);
    return;
  }
  state.document = doc;
  for (const button of document.querySelectorAll("#documents button")) button.setAttribute("aria-current", String(button.dataset.id === id));
  $("empty").hidden = true;
  $("document").hidden = false;
  $("doc-title").textContent = doc.filename;
  const pages = new Set(doc.blocks.map((b) => b.page).filter((p) => p !== null && p !== undefined));
  const headings = doc.blocks.filter((b) => b.kind === "heading");
  $("doc-facts").textContent =
    `${doc.format} · ${doc.text.length.toLocaleString("en")} characters · ${doc.blocks.length} blocks · ` +
    `${headings.length} headings${pages.size ? ` · ${pages.size} pages` : ""}`;
  $("headings").replaceChildren(
    ...headings.map((h) => {
      const item = element("li", {}, h.page ? `${h.text} (page ${h.page})` : h.text);
      // Set through the style object: the page's content policy refuses style attributes.
      item.style.marginLeft = `${h.level - 1}rem`;
      return item;
    }),
  );
  const strategies = [...state.columns.keys()];
  state.columns.clear();
  // The extracted text first, with its headings and pages; each strategy's chunks beside it.
  const plain = element("section", { class: "column", "data-strategy": "" }, element("header", {}, element("h3", {}, "Extracted text")));
  plain.append(renderText(doc, [], undefined, "the extracted text"));
  $("columns").replaceChildren(plain);
  for (const strategy of strategies) await addColumn(strategy);
  loadQuestions(doc);
  $("run-result").replaceChildren();
  await loadCollections();
  await loadExperiments();
  status("");
}

/** Every page of a listing route, its items together (a sanity cap of 2,000 items). */
async function listAll(path) {
  const items = [];
  for (let offset = 0; offset < 2000; offset += 100) {
    const page = await api(`${path}?offset=${offset}&limit=100`);
    items.push(...page.items);
    if (items.length >= page.total || page.items.length === 0) break;
  }
  return items;
}

/** The collections holding the open document: a benchmark may search one of them instead of the document alone. */
async function loadCollections() {
  const doc = state.document;
  state.collections = (await listAll("/collections")).filter((c) => c.documents.some((d) => d.id === doc.id));
  $("run-scope").replaceChildren(
    element("option", { value: "" }, `this document (${doc.filename})`),
    ...state.collections.map((c) =>
      element("option", { value: c.id }, `the collection ${c.name} (${c.documents.length} document${c.documents.length === 1 ? "" : "s"})`),
    ),
  );
}

/**
 * The segments of the text between every chunk and block boundary, each with the chunks covering
 * it and its block: one sweep over the sorted boundaries, so a long document with many chunks stays quick.
 */
function segments(text, chunks, blocks, marks = []) {
  const cuts = new Set([0, text.length]);
  for (const m of marks) cuts.add(m.start).add(m.end);
  for (const c of chunks) cuts.add(c.start).add(c.end);
  for (const b of blocks) cuts.add(b.start).add(b.end);
  const sorted = [...cuts].filter((x) => x >= 0 && x <= text.length).sort((a, b) => a - b);
  const byStart = [...chunks].sort((a, b) => a.start - b.start);
  const orderedBlocks = [...blocks].sort((a, b) => a.start - b.start);
  let next = 0;
  let blockAt = 0;
  let open = [];
  const out = [];
  for (let i = 0; i + 1 < sorted.length; i++) {
    const [start, end] = [sorted[i], sorted[i + 1]];
    while (next < byStart.length && byStart[next].start <= start) open.push(byStart[next++]);
    open = open.filter((c) => c.end > start);
    while (blockAt < orderedBlocks.length && orderedBlocks[blockAt].end <= start) blockAt++;
    const block = orderedBlocks[blockAt]?.start <= start ? orderedBlocks[blockAt] : undefined;
    out.push({ start, end, chunks: open.filter((c) => c.start < end), block });
  }
  return out;
}

/** The chunks a strategy retrieves: a parent-child strategy's children (its parents are what the answer reads). */
const retrievable = (chunks) => (chunks.some((c) => c.role === "parent") ? chunks.filter((c) => c.role !== "parent") : chunks);

/**
 * Segments per run of the text: the spans are grouped in runs, each cut after a line's end, that the
 * browser lays out only when they come into view (`content-visibility: auto` in ui.css). A 13,000-chunk
 * document's 40,000 spans took 0.9 s to lay out at once, before the column showed (npm run bench:ui).
 */
const SEGMENTS_PER_RUN = 200;

/** The text with each chunk coloured (alternating, by its order among the chunks shown; overlaps in a colour of their own). */
function renderText(doc, chunks, marks = { references: [], retrieved: [] }, label = "the document's text") {
  const box = element("div", { class: "text", tabindex: "0", role: "region", "aria-label": label });
  let run = element("div", { class: "run" });
  let inRun = 0;
  const order = new Map(chunks.map((c, i) => [c, i]));
  const within = (s, spans) => spans.some((m) => m.start < s.end && s.start < m.end);
  let page = null;
  for (const s of segments(doc.text, chunks, doc.blocks, [...marks.references, ...marks.retrieved])) {
    const classes = [];
    if (within(s, marks.references)) classes.push("reference");
    if (within(s, marks.retrieved)) classes.push("retrieved");
    if (chunks.length === 0) classes.push("plain");
    else if (s.chunks.length === 0) classes.push("outside");
    else if (s.chunks.length > 1) classes.push("overlap");
    else classes.push(order.get(s.chunks[0]) % 2 === 0 ? "chunk-a" : "chunk-b");
    if (s.block?.kind === "heading") classes.push("heading");
    const span = element("span", { class: classes.join(" "), "data-start": String(s.start) }, doc.text.slice(s.start, s.end));
    if (s.block?.page && s.block.page !== page && s.start === s.block.start) {
      page = s.block.page;
      span.classList.add("page-start");
      span.dataset.page = String(page);
    }
    if (chunks.length > 0)
      span.title = s.chunks.length
        ? s.chunks
            .map(
              (c) =>
                `chunk ${order.get(c) + 1} of ${chunks.length}: ${c.token_count} tokens, characters ${c.start}-${c.end}${c.page ? `, page ${c.page}` : ""}`,
            )
            .join("\n")
        : "in no chunk";
    if (s.chunks.length) span.dataset.chunks = s.chunks.map((c) => c.position).join(" ");
    run.append(span);
    // A run ends only after a line's end, so that no line is split between two boxes.
    if (++inRun >= SEGMENTS_PER_RUN && doc.text[s.end - 1] === "\n") {
      box.append(run);
      run = element("div", { class: "run" });
      inRun = 0;
    }
  }
  if (inRun > 0) box.append(run);
  return box;
}

/** A bar per tenth of the range of the chunks' token counts, each bar's count on hover. */
/** The least and the greatest of numbers (a loop: spreading 100,000 of them into Math.min overflows the stack). */
function range(numbers) {
  let [least, greatest] = [Infinity, -Infinity];
  for (const n of numbers) [least, greatest] = [Math.min(least, n), Math.max(greatest, n)];
  return { least, greatest };
}

function histogram(chunks) {
  const tokens = chunks.map((c) => c.token_count);
  const max = Math.max(1, range(tokens).greatest);
  const bins = 10;
  const counts = Array(bins).fill(0);
  for (const t of tokens) counts[Math.min(bins - 1, Math.floor((t / max) * bins))] += 1;
  const highest = Math.max(1, range(counts).greatest);
  const [width, height] = [240, 60];
  const ns = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(ns, "svg");
  svg.setAttribute("class", "histogram");
  svg.setAttribute("viewBox", `0 0 ${width} ${height + 12}`);
  svg.setAttribute("width", String(width));
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `chunk sizes: ${tokens.length} chunks of ${range(tokens).least} to ${max} tokens`);
  counts.forEach((count, i) => {
    const bar = document.createElementNS(ns, "rect");
    const barHeight = (count / highest) * height;
    bar.setAttribute("x", String(i * (width / bins) + 1));
    bar.setAttribute("y", String(height - barHeight));
    bar.setAttribute("width", String(width / bins - 2));
    bar.setAttribute("height", String(barHeight));
    const title = document.createElementNS(ns, "title");
    title.textContent = `${count} chunks of ${Math.round((i * max) / bins)}-${Math.round(((i + 1) * max) / bins)} tokens`;
    bar.append(title);
    svg.append(bar);
  });
  for (const [x, label, anchor] of [
    [0, "0", "start"],
    [width, `${max} tokens`, "end"],
  ]) {
    const text = document.createElementNS(ns, "text");
    text.setAttribute("x", String(x));
    text.setAttribute("y", String(height + 10));
    text.setAttribute("text-anchor", anchor);
    text.textContent = label;
    svg.append(text);
  }
  return svg;
}

async function addColumn(strategy) {
  const doc = state.document;
  if (!doc || state.columns.has(strategy)) return;
  const column = element("section", { class: "column", "data-strategy": strategy });
  state.columns.set(strategy, column);
  $("columns").append(column);
  await fillColumn(column, doc, strategy);
}

async function fillColumn(column, doc, strategy) {
  const close = element(
    "button",
    {
      type: "button",
      class: "close",
      title: "Close",
      "aria-label": `Close the ${strategy} column`,
      onclick: () => (state.columns.delete(strategy), column.remove()),
    },
    "×",
  );
  const heading = element("header", {}, close, element("h3", {}, strategy));
  column.replaceChildren(heading);
  let listed;
  try {
    listed = await api(`/documents/${encodeURIComponent(doc.id)}/chunks?strategy=${encodeURIComponent(strategy)}`);
  } catch (error) {
    const stillThere =
      error.status === 404 &&
      (await api(`/documents/${encodeURIComponent(doc.id)}`).then(
        () => true,
        () => false,
      ));
    if (!stillThere) {
      heading.append(element("p", { class: "error" }, error.status === 404 ? `${doc.filename} is no longer stored` : error.message));
      return;
    }
    const process = element(
      "button",
      { type: "button", class: "process", onclick: () => ((process.disabled = true), processStrategy(column, doc, strategy)) },
      "Process it",
    );
    heading.append(element("p", {}, `Not processed with ${strategy} yet. `, process));
    return;
  }
  const chunks = retrievable(listed.chunks);
  const tokens = chunks.map((c) => c.token_count);
  const mean = tokens.reduce((a, b) => a + b, 0) / Math.max(1, tokens.length);
  const parents = listed.chunks.length - chunks.length;
  const { least, greatest } = range(tokens);
  heading.append(
    element(
      "p",
      { class: "facts" },
      `${chunks.length} chunks${parents ? ` (and ${parents} parents, not drawn)` : ""}` +
        (chunks.length ? `, ${least}-${greatest} tokens, mean ${mean.toFixed(0)}` : ""),
    ),
    histogram(chunks),
  );
  column.append(renderText(doc, chunks, undefined, `the text cut by ${strategy}`));
}

const FINAL_JOB_STATUSES = ["completed", "failed"];

/**
 * Polls a background job (GET /jobs/{id}) until it ends, saying each state on `line` after
 * `label` and filling `bar` from the "done/total" of its progress; returns the completed job, or
 * throws with the error a failed one holds.
 */
async function followJob(job, label, line, bar) {
  while (!FINAL_JOB_STATUSES.includes(job.status)) {
    line.textContent = `${label}: ${job.status}${job.progress ? `, ${job.progress}` : ""}`;
    const fraction = /(\d+)\s*(?:of|\/)\s*(\d+)/.exec(job.progress ?? "");
    if (fraction && Number(fraction[2]) > 0) bar.value = Number(fraction[1]) / Number(fraction[2]);
    await new Promise((resolve) => setTimeout(resolve, 400));
    job = await api(`/jobs/${encodeURIComponent(job.job_id)}`);
  }
  if (job.status !== "completed") throw new Error(job.error ?? `the job ended ${job.status}`);
  return job;
}

/** Saves what `href` points at (an object URL the page made) as a file, by a link clicked once. */
function saveAs(href, filename) {
  const link = element("a", { href, download: filename });
  document.body.append(link);
  link.click();
  link.remove();
}

/** Processes the document with one strategy in the background, the job's progress shown until it ends. */
async function processStrategy(column, doc, strategy) {
  const bar = element("progress", {});
  const line = element("p", {}, `Processing with ${strategy}…`);
  column.querySelector("header").append(line, bar);
  try {
    const job = await postJson(`/documents/${encodeURIComponent(doc.id)}/process?background=true`, { strategies: [strategy] });
    const done = await followJob(job, `Processing with ${strategy}`, line, bar);
    // A job that ran to its end may still have failed a strategy (the embedding provider refused): said, not drawn as "not processed".
    const failed = (done.result?.strategies_failed ?? []).find((f) => f.strategy === strategy);
    if (failed) throw new Error(failed.error);
    await fillColumn(column, doc, strategy);
  } catch (error) {
    line.textContent = `${strategy}: ${error.message}`;
    line.className = "error";
    bar.remove();
    // Tried again once the cause is mended (the provider back, the server restarted).
    const retry = column.querySelector("button.process");
    if (retry) retry.disabled = false;
  }
}

async function loadStrategies() {
  const { strategies } = await api("/strategies");
  $("strategy-names").replaceChildren(...strategies.map((s) => element("option", { value: s.name }, s.description ?? "")));
}

function wireUpload() {
  $("files").addEventListener("change", (event) => upload(event.target.files));
  $("folder").addEventListener("change", (event) => upload(event.target.files));
  const zone = $("upload");
  zone.addEventListener("dragover", (event) => (event.preventDefault(), zone.classList.add("over")));
  zone.addEventListener("dragleave", () => zone.classList.remove("over"));
  zone.addEventListener("drop", async (event) => {
    event.preventDefault();
    zone.classList.remove("over");
    await upload(await droppedFiles(event.dataTransfer));
  });
}

/** The files of a drop, a dropped folder's files included (read through its entries). */
async function droppedFiles(transfer) {
  const entries = [...transfer.items].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
  if (entries.length === 0) return [...transfer.files];
  const files = [];
  const walk = async (entry) => {
    if (entry.isFile) files.push(await new Promise((resolve, reject) => entry.file(resolve, reject)));
    else {
      const reader = entry.createReader();
      for (let batch = await readBatch(reader); batch.length > 0; batch = await readBatch(reader)) for (const child of batch) await walk(child);
    }
  };
  for (const entry of entries) await walk(entry);
  return files;
}

const readBatch = (reader) => new Promise((resolve, reject) => reader.readEntries(resolve, reject));

/**
 * The columns scroll together, by the text: when one column scrolls, every other one is scrolled
 * so that the character at the top of the first is at the top of each (their chunks differ, so
 * their layouts do too). The span at the top is found by bisection over the spans in text order.
 */
function spanAtTop(box) {
  const spans = box.querySelectorAll("span[data-start]");
  const top = box.getBoundingClientRect().top;
  let [low, high] = [0, spans.length - 1];
  while (low < high) {
    const middle = (low + high) >> 1;
    if (spans[middle].getBoundingClientRect().bottom <= top) low = middle + 1;
    else high = middle;
  }
  return spans[low] ?? null;
}

/** The span of a column's text holding a character offset (bisection over their starts). */
function spanHolding(box, offset) {
  const spans = box.querySelectorAll("span[data-start]");
  let [low, high] = [0, spans.length - 1];
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (Number(spans[middle].dataset.start) <= offset) low = middle;
    else high = middle - 1;
  }
  return spans[low] ?? null;
}

let syncing = false;
$("columns").addEventListener(
  "scroll",
  (event) => {
    const box = event.target;
    if (syncing || !(box instanceof Element) || !box.classList.contains("text")) return;
    const first = spanAtTop(box);
    if (!first) return;
    // Where the top span starts below the top, the others' start as far down; where it starts above
    // (cut by the top edge), theirs starts at the top, so the character there shows in each.
    const shift = Math.max(0, first.getBoundingClientRect().top - box.getBoundingClientRect().top);
    syncing = true;
    for (const other of document.querySelectorAll("#columns .text")) {
      if (other === box) continue;
      const target = spanHolding(other, Number(first.dataset.start));
      if (target) other.scrollTop += target.getBoundingClientRect().top - other.getBoundingClientRect().top - shift;
    }
    requestAnimationFrame(() => (syncing = false));
  },
  true, // scroll events do not bubble: heard on the way down
);

// Deleting a document (DELETE /documents/{id}) takes its chunks, its indexes and its place in every
// collection with it; its experiments stay. Asked once more first, since it cannot be undone.
$("doc-delete").addEventListener("click", async () => {
  const doc = state.document;
  if (!doc || !confirm(`Delete ${doc.filename}? Its chunks and indexes go too; its experiments stay.`)) return;
  try {
    await api(`/documents/${encodeURIComponent(doc.id)}`, { method: "DELETE" });
  } catch (error) {
    return status(`${doc.filename}: ${error.message}`, true);
  }
  state.document = null;
  state.columns.clear();
  $("document").hidden = true;
  $("empty").hidden = false;
  await loadDocuments();
  status(`Deleted ${doc.filename}.`);
});

$("add-strategy").addEventListener("submit", async (event) => {
  event.preventDefault();
  const strategy = $("strategy").value.trim();
  if (strategy) await addColumn(strategy);
  $("strategy").value = "";
});

// Questions by selection: a passage selected in the text becomes a question's reference, with its
// offsets in the document's extracted text. The set is kept in this browser (localStorage, per
// document) until it is exported as the questions file `chunkeval bench --questions` reads.

const questionsKey = (doc) => `chunkeval-questions-${doc.id}`;
/** The set being built: its questions as the file lists them, and which of them were generated (by which generator). */
const questions = { items: [], generated: [] };

function loadQuestions(doc) {
  const kept = JSON.parse(localStorage.getItem(questionsKey(doc)) ?? "null");
  questions.items = kept?.items ?? [];
  questions.generated = kept?.generated ?? questions.items.map(() => null);
  $("question-form").hidden = true;
  $("questions-report").replaceChildren();
  renderQuestions();
}

function saveQuestions() {
  localStorage.setItem(questionsKey(state.document), JSON.stringify(questions));
}

/**
 * Who wrote the set, as a generated file's metadata says it: the generator of the generated
 * questions when they are half the set or more (a template set with a question added by hand is
 * still a smoke test), else none (written by hand).
 */
function origin() {
  const kinds = questions.generated.filter(Boolean);
  if (kinds.length === 0 || kinds.length < questions.items.length / 2) return null;
  return kinds.includes("template") ? { kind: "template", model: null } : kinds[0];
}

/** The character offset in the document's text of a point of the selection: its text node's span says where the span starts. */
function textOffset(node, offset) {
  const span = (node.nodeType === Node.TEXT_NODE ? node.parentElement : node)?.closest?.(".text span[data-start]");
  if (!span) return null;
  if (node.nodeType !== Node.TEXT_NODE) return Number(span.dataset.start) + (offset > 0 ? span.textContent.length : 0);
  return Number(span.dataset.start) + offset;
}

/** The selected passage, trimmed of white space at its ends, when it lies in one column's text. */
function selectedPassage() {
  const selection = document.getSelection();
  if (!selection || selection.isCollapsed || !state.document) return null;
  const range = selection.getRangeAt(0);
  const box = (n) => (n.nodeType === Node.TEXT_NODE ? n.parentElement : n)?.closest?.(".text");
  if (!box(range.startContainer) || box(range.startContainer) !== box(range.endContainer)) return null;
  let start = textOffset(range.startContainer, range.startOffset);
  let end = textOffset(range.endContainer, range.endOffset);
  if (start === null || end === null) return null;
  const text = state.document.text;
  while (start < end && /\s/.test(text[start])) start++;
  while (end > start && /\s/.test(text[end - 1])) end--;
  return end > start ? { start, end, text: text.slice(start, end) } : null;
}

let pending = null;
/** Offers a question about the passage selected in the text, if one is. */
function offerQuestion() {
  const passage = selectedPassage();
  if (!passage) return;
  pending = passage;
  $("question-reference").textContent = passage.text.length > 300 ? `${passage.text.slice(0, 300)}…` : passage.text;
  $("question-offsets").textContent = `characters ${passage.start}-${passage.end}`;
  $("question-form").hidden = false;
  $("question-text").focus();
}
document.addEventListener("mouseup", offerQuestion);
// By keyboard, a selection made or extended with Shift and the arrow keys (F7 turns on caret browsing)
// is offered when Shift is let go; by touch, when the finger lifts from the selection's handles.
document.addEventListener("keyup", (event) => event.key === "Shift" && offerQuestion());
document.addEventListener("touchend", () => setTimeout(offerQuestion, 0));

$("question-form").addEventListener("submit", (event) => {
  event.preventDefault();
  if (!pending) return;
  const answer = $("question-answer").value.trim();
  questions.items.push({
    question: $("question-text").value.trim(),
    expected_answer: answer || null,
    references: [{ text: pending.text, start: pending.start, end: pending.end }],
  });
  questions.generated.push(null);
  pending = null;
  $("question-form").reset();
  $("question-form").hidden = true;
  saveQuestions();
  renderQuestions();
});
$("question-cancel").addEventListener("click", () => ((pending = null), $("question-form").reset(), ($("question-form").hidden = true)));

/** Marks a reference in the extracted text and scrolls it into view. */
/**
 * Marks a question's reference in the text. A reference from a questions file may give its text
 * without offsets: it is looked for as written, then with any run of white space matching any
 * other; one not found says so (Validate finds it up to typography too, as bench does).
 */
function showReference(reference) {
  if (reference.start !== undefined && reference.end !== undefined) return markInText([reference], []);
  const text = state.document.text;
  let start = text.indexOf(reference.text);
  let length = reference.text.length;
  if (start < 0) {
    const pattern = reference.text
      .trim()
      .split(/\s+/)
      .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
      .join("\\s+");
    const found = pattern ? new RegExp(pattern).exec(text) : null;
    if (found) [start, length] = [found.index, found[0].length];
  }
  if (start < 0) return status(`This reference is not in the text as written: Validate says whether the benchmark finds it.`, true);
  markInText([{ start, end: start + length }], []);
}

function renderQuestions() {
  $("question-list").replaceChildren(
    ...questions.items.map((q, i) => {
      const edit = (field) => (event) => {
        questions.items[i][field] = event.target.value.trim() || (field === "expected_answer" ? null : "");
        saveQuestions();
      };
      const reference = q.references?.[0];
      return element(
        "li",
        { "data-item": String(i + 1) },
        element("input", { value: q.question, "aria-label": `question ${i + 1}`, onchange: edit("question") }),
        " ",
        element("input", {
          value: q.expected_answer ?? "",
          placeholder: "expected answer",
          "aria-label": `expected answer ${i + 1}`,
          onchange: edit("expected_answer"),
        }),
        element("br"),
        q.answerable === false
          ? element("small", {}, "a negative control: the document does not answer it")
          : reference
            ? element(
                "small",
                {},
                element("q", {}, reference.text.length > 160 ? `${reference.text.slice(0, 160)}…` : reference.text),
                reference.start !== undefined ? ` characters ${reference.start}-${reference.end} ` : " ",
                element(
                  "button",
                  { type: "button", "aria-label": `Show the reference of question ${i + 1} in the text`, onclick: () => showReference(reference) },
                  "Show",
                ),
              )
            : element("small", {}, "no reference"),
        questions.generated[i] ? element("small", {}, ` · generated (${questions.generated[i].kind})`) : "",
        " ",
        element(
          "button",
          {
            type: "button",
            class: "delete",
            "aria-label": `Delete question ${i + 1}`,
            onclick: () => (questions.items.splice(i, 1), questions.generated.splice(i, 1), saveQuestions(), renderQuestions()),
          },
          "Delete",
        ),
      );
    }),
  );
  $("questions-check").disabled = $("questions-export").disabled = questions.items.length === 0;
}

/**
 * The question set over what the benchmark searches (the Search choice): the open document, or a
 * collection holding it, where every question searches all its documents and a reference that
 * names no document is this one's. Validating checks the same as the run will use.
 */
function questionsOverScope() {
  const collection = $("run-scope").value;
  if (!collection) return { document_id: state.document.id, questions: questions.items };
  // A reference that names its document (a file written for the collection) keeps it; one made on this page names this document.
  const named = questions.items.map((q) => ({ ...q, references: q.references.map((r) => ({ document: state.document.id, ...r })) }));
  return { collection_id: collection, questions: named };
}

/** The check of `chunkeval questions validate`, by POST /questions/check, said item by item. */
async function checkQuestions() {
  const report = $("questions-report");
  report.replaceChildren(element("p", {}, "Checking…"));
  try {
    const body = questionsOverScope();
    const from = origin();
    if (from) body.origin = from;
    const check = await postJson("/questions/check", body);
    const located = check.located;
    const lines = [
      element(
        "p",
        {},
        `${check.questions} questions, ${check.references} references: ${located.exact} found as written, ` +
          `${located.normalised} up to white space or typography, ${located.words} as the same words.`,
      ),
    ];
    for (const p of check.problems) {
      const closest = p.closest ? ` Closest passage (${Math.round(p.closest.similarity * 100)} % alike), to paste: “${p.closest.text}”` : "";
      lines.push(
        element("p", { class: "problem", "data-kind": p.kind }, `Item ${p.item} (“${p.question}”): ${p.kind.replace(/_/g, " ")}: ${p.detail}.${closest}`),
      );
    }
    for (const p of check.copying) lines.push(element("p", { "data-kind": p.kind }, `Item ${p.item} copies its excerpt: ${p.detail}.`));
    if (check.smoke_test)
      lines.push(element("p", { class: "problem", "data-kind": "smoke_test" }, `A benchmark on these questions would be a smoke test: ${check.smoke_test}`));
    if (check.problems.length === 0 && !check.smoke_test) lines.push(element("p", { class: "ok" }, "No problem found."));
    report.replaceChildren(...lines);
  } catch (error) {
    report.replaceChildren(element("p", { class: "problem" }, error.message));
  }
}

async function generateQuestions() {
  const report = $("questions-report");
  report.replaceChildren(element("p", {}, "Generating…"));
  try {
    const body = { document_id: state.document.id, count: Number($("generate-count").value) || 5 };
    if ($("generate-with").value) body.generator = $("generate-with").value;
    const file = await postJson("/questions/generate", body);
    const generator = { kind: file.metadata.kind, model: file.metadata.model ?? null };
    for (const q of file.questions) {
      questions.items.push(q);
      questions.generated.push(generator);
    }
    saveQuestions();
    renderQuestions();
    report.replaceChildren(element("p", {}, `${file.questions.length} questions generated (${file.metadata.notice ?? generator.kind}).`));
  } catch (error) {
    report.replaceChildren(element("p", { class: "problem" }, error.message));
  }
}

/** The set as a questions file: with the generator's metadata when generated questions make it (bench then says so). */
function exportQuestions() {
  const from = origin();
  const file = from ? { metadata: from, questions: questions.items } : questions.items;
  saveAs(
    URL.createObjectURL(new Blob([JSON.stringify(file, null, 2) + "\n"], { type: "application/json" })),
    `${state.document.filename.replace(/\.[^.]+$/, "")}.questions.json`,
  );
}

/** A questions file's questions (.json: a list or {metadata, questions}; .jsonl: one per line), added to the set. */
async function importQuestions(file) {
  const report = $("questions-report");
  try {
    const text = await file.text();
    let parsed;
    if (/\.jsonl$/i.test(file.name))
      parsed = text
        .split("\n")
        .filter((line) => line.trim())
        .map((line) => JSON.parse(line));
    else if (/\.ya?ml$/i.test(file.name)) throw new Error("the page reads .json and .jsonl questions files; `chunkeval questions validate` reads YAML");
    else parsed = JSON.parse(text);
    const list = Array.isArray(parsed) ? parsed : parsed?.questions;
    if (!Array.isArray(list)) throw new Error("expected a list of questions, or {metadata, questions}");
    const bad = list.findIndex((q) => !q || typeof q.question !== "string");
    if (bad !== -1) throw new Error(`item ${bad + 1} has no "question"`);
    const kind =
      parsed?.metadata?.kind === "template" || parsed?.metadata?.kind === "llm" ? { kind: parsed.metadata.kind, model: parsed.metadata.model ?? null } : null;
    for (const q of list) {
      questions.items.push({ ...q, references: q.references ?? [], expected_answer: q.expected_answer ?? null });
      questions.generated.push(kind);
    }
    saveQuestions();
    renderQuestions();
    report.replaceChildren(element("p", {}, `${list.length} questions imported from ${file.name}: Validate checks them against this document.`));
  } catch (error) {
    report.replaceChildren(element("p", { class: "problem" }, `${file.name}: ${error.message}`));
  }
}

$("questions-check").addEventListener("click", checkQuestions);
$("questions-generate").addEventListener("click", generateQuestions);
$("questions-export").addEventListener("click", exportQuestions);
$("questions-import").addEventListener("change", async (event) => {
  for (const file of event.target.files) await importQuestions(file);
  event.target.value = "";
});

// Benchmarks: the question set run in the background against strategies (the columns shown, by
// default), with progress and cancel; then the verdict as the report states it, the scorecard, and
// each question's drill-down: its reference and every strategy's retrieved chunks in the text.

let runningJob = null;

function runStrategies() {
  const typed = $("run-strategies")
    .value.split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  if (typed.length > 0) return typed;
  // A sweep alone compares its own variants; without one, the columns shown.
  if ($("run-sweep").value.trim()) return undefined;
  const shown = [...state.columns.keys()];
  return shown.length > 0 ? shown : undefined;
}

$("run-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  const result = $("run-result");
  if (questions.items.length === 0) {
    result.replaceChildren(element("p", { class: "problem" }, "Add, generate or import questions first: the benchmark asks them."));
    return;
  }
  const body = questionsOverScope();
  const strategies = runStrategies();
  if (strategies) body.strategies = strategies;
  // One sweep (its values are comma-separated, so it has a field of its own): `bench --sweep`.
  const sweep = $("run-sweep").value.trim();
  if (sweep) body.sweep = [sweep];
  const topK = Number($("run-top-k").value);
  if (topK) body.top_k = topK;
  const [bar, line] = [$("run-bar"), $("run-line")];
  bar.removeAttribute("value");
  line.textContent = `Starting a benchmark of ${[...(strategies ?? []), ...(sweep ? [`the sweep ${sweep}`] : [])].join(", ") || "every strategy"}…`;
  $("run-progress").hidden = false;
  $("run-form").querySelector("button").disabled = true;
  result.replaceChildren();
  try {
    const queued = await postJson("/benchmarks?background=true", body);
    runningJob = queued.job_id;
    const job = await followJob(queued, "Benchmark", line, bar);
    await showExperiment(job.result.experiment_id);
    await loadExperiments();
  } catch (error) {
    result.replaceChildren(element("p", { class: "problem" }, error.message));
  } finally {
    runningJob = null;
    $("run-progress").hidden = true;
    $("run-form").querySelector("button").disabled = false;
  }
});

$("run-cancel").addEventListener("click", async () => {
  if (!runningJob) return;
  $("run-line").textContent = "Cancelling…";
  // The polling loop sees the job failed with the reason and says it.
  await api(`/jobs/${encodeURIComponent(runningJob)}/cancel`, { method: "POST" }).catch((error) => status(error.message, true));
});

const METRICS = [
  ["composite_score", "composite"],
  ["avg_recall", "recall"],
  ["avg_precision", "precision"],
  ["avg_iou", "IoU"],
  ["mrr", "MRR"],
  ["hit_rate", "hit rate"],
  ["avg_context_relevance", "context relevance"],
  ["avg_retrieved_tokens", "tokens retrieved"],
];
const figure = (value) => (value === null || value === undefined ? "–" : Math.abs(value) >= 100 ? Math.round(value).toLocaleString("en") : value.toFixed(3));

/** Whether a retrieved chunk overlaps a reference of its question (in the same document): a hit. */
const overlaps = (chunk, references) =>
  references.some((r) => (!r.document_id || !chunk.document_id || r.document_id === chunk.document_id) && chunk.start < r.end && r.start < chunk.end);

const nextFrame = () => new Promise((resolve) => requestAnimationFrame(resolve));

/**
 * Scrolls a column's text so that `target` shows a third of the way down, and the window so that the
 * column shows. Measured again over a few frames: the runs of text out of view have a guessed height
 * until the browser draws them (content-visibility), so one scroll lands short (the reference of a
 * question further down the document ended up below the box).
 */
async function reveal(box, target) {
  target.closest(".run")?.style.setProperty("content-visibility", "visible");
  for (let attempt = 0; attempt < 8; attempt++) {
    const offset = target.getBoundingClientRect().top - box.getBoundingClientRect().top - box.clientHeight / 3;
    if (Math.abs(offset) < 4) break;
    box.scrollTop += offset;
    await nextFrame();
    await nextFrame();
  }
  box.scrollIntoView({ block: "nearest" });
}

/**
 * Draws the extracted text again with references and retrieved chunks marked to the character
 * (each a cut of its own), scrolled to the first reference: where a question's answer lies, and
 * what a strategy brought back.
 */
function markInText(references, retrieved) {
  const old = document.querySelector('.column[data-strategy=""] .text');
  if (!old || !state.document) return;
  const inDocument = (s) => !s.document_id || s.document_id === state.document.id;
  const marked = renderText(
    state.document,
    [],
    { references: references.filter(inDocument), retrieved: retrieved.filter(inDocument) },
    "the extracted text, the reference and the retrieved chunks marked",
  );
  old.replaceWith(marked);
  const reference = marked.querySelector(".reference");
  if (reference) reveal(marked, reference);
}

/** An experiment as the report states it: the verdict, the scorecard, and a drill-down per question. */
async function showExperiment(id) {
  const result = $("run-result");
  result.replaceChildren(element("p", {}, "Loading the experiment…"));
  const exp = await api(`/benchmarks/${encodeURIComponent(id)}/report?format=json`);
  const variants = exp.strategies_used;
  const scorecard = element(
    "table",
    { class: "scorecard" },
    element("tr", {}, element("th", {}, "strategy"), ...METRICS.map(([, label]) => element("th", {}, label))),
    ...variants.map((v) =>
      element(
        "tr",
        { "data-strategy": v },
        // "best" only where the verdict recommends it; a lead within noise scored highest, no more (docs/metrics.md).
        element("td", {}, v !== exp.best_strategy ? v : exp.verdict_status === "recommendation" ? `${v} (best)` : `${v} (scored highest)`),
        ...METRICS.map(([key]) => element("td", {}, figure(exp.aggregate_metrics[v]?.[key]))),
      ),
    ),
  );
  const reports = element("p", {}, "Reports: ", ...["managerial", "technical"].flatMap((view) => [reportLink(id, view), " "]));
  const first = exp.results[variants[0]] ?? [];
  // Over a collection a chunk may lie in another document than the one shown: its name is said (the text marks only this one's).
  const names = new Map((exp.collection?.documents ?? []).map((d) => [d.id, d.filename]));
  const elsewhere = (c) => (c.document_id && c.document_id !== state.document?.id ? ` in ${names.get(c.document_id) ?? c.document_id}` : "");
  const drill = element(
    "ol",
    { class: "drill" },
    ...first.map((q, i) => {
      const details = element("div", { class: "drill-detail", hidden: "" });
      const open = () => {
        details.hidden = !details.hidden;
        if (details.hidden) return;
        details.replaceChildren(
          element("p", {}, q.references.length ? `Reference: “${q.references.map((r) => r.text).join("” · “")}”` : "No reference (a negative control)."),
          ...variants.map((v) => {
            const answer = exp.results[v][i];
            const chunks = answer.retrieved.map((c, rank) =>
              element(
                "li",
                { class: overlaps(c, q.references) ? "hit" : "miss", "data-rank": String(rank + 1) },
                `#${rank + 1} score ${c.score.toFixed(3)}, characters ${c.start}-${c.end}${elsewhere(c)}: ${overlaps(c, q.references) ? "hit" : "miss"}`,
              ),
            );
            return element(
              "div",
              { "data-strategy": v },
              element("strong", {}, v),
              ` recall ${figure(answer.metrics.recall)}, reciprocal rank ${figure(answer.metrics.reciprocal_rank)} `,
              element(
                "button",
                {
                  type: "button",
                  "aria-label": `Show ${v}'s retrieval for this question in the text`,
                  onclick: () => markInText(q.references, answer.retrieved),
                },
                "Show in the text",
              ),
              element("ul", {}, ...chunks),
            );
          }),
        );
      };
      const toggle = element(
        "button",
        { type: "button", class: "question", "aria-expanded": "false", onclick: () => (open(), toggle.setAttribute("aria-expanded", String(!details.hidden))) },
        q.question,
      );
      return element("li", {}, toggle, details);
    }),
  );
  result.replaceChildren(
    element("h4", { "data-status": exp.verdict_status }, exp.headline),
    element("p", {}, exp.verdict),
    ...(exp.verdict_notes ?? []).map((note) => element("p", { class: "note" }, note)),
    scorecard,
    reports,
    element("h4", {}, `Questions (${first.length}): each one's retrieval, strategy by strategy`),
    drill,
  );
}

/** A report of the experiment: a link when the server needs no key, else a download the page makes with the key. */
function reportLink(id, view) {
  const path = `/benchmarks/${encodeURIComponent(id)}/report?view=${view}`;
  if (!state.key) return element("a", { href: path, target: "_blank", rel: "noopener" }, `${view} (HTML)`);
  return element(
    "button",
    {
      type: "button",
      onclick: async () => {
        const response = await fetch(path, { headers: { authorization: `Bearer ${state.key}` } });
        if (!response.ok) return status(`${view} report: ${response.status} ${response.statusText}`, true);
        saveAs(URL.createObjectURL(await response.blob()), `${id}-${view}.html`);
      },
    },
    `${view} (HTML, download)`,
  );
}

/** The experiments run on the open document, newest first: each opens its verdict, scorecard and drill-down. */
async function loadExperiments() {
  const list = $("experiments");
  // A collection's experiment carries the collection's id where a document's carries the document's.
  const collections = new Map((state.collections ?? []).map((c) => [c.id, c.name]));
  const mine = (await listAll("/experiments")).filter((e) => e.document_id === state.document?.id || collections.has(e.document_id));
  list.replaceChildren(
    ...mine.map((e) =>
      element(
        "li",
        {},
        element("input", { type: "checkbox", value: e.id, "aria-label": `compare ${e.id}` }),
        " ",
        element(
          "button",
          { type: "button", "data-experiment": e.id, onclick: () => showExperiment(e.id).catch((error) => status(error.message, true)) },
          `${e.created_at} · ${collections.has(e.document_id) ? `the collection ${e.document_name} · ` : ""}${e.strategies_used.join(", ")}`,
        ),
      ),
    ),
  );
  if (mine.length === 0) list.replaceChildren(element("li", {}, "None yet."));
  else
    list.append(
      element(
        "li",
        {},
        element(
          "button",
          { type: "button", id: "compare", onclick: () => compareChosen().catch((error) => status(error.message, true)) },
          "Compare the two ticked",
        ),
      ),
    );
}

/** Where a question's first retrieved chunk that holds a reference ranks ("hit at 2"), or a miss. */
function firstHit(result) {
  const rank = result.retrieved.findIndex((c) => overlaps(c, result.references));
  return rank === -1 ? "miss" : `hit at ${rank + 1}`;
}

/**
 * Two experiments side by side: each one's scorecard, then per question (matched by its wording)
 * each strategy's retrieval in both: where the first chunk holding the reference ranks, and recall.
 */
async function compareChosen() {
  const ids = [...document.querySelectorAll('#experiments input[type="checkbox"]:checked')].map((box) => box.value);
  const result = $("run-result");
  if (ids.length !== 2) {
    result.replaceChildren(element("p", { class: "problem" }, `Tick two experiments to compare (${ids.length} ticked).`));
    return;
  }
  const [a, b] = await Promise.all(ids.map((id) => api(`/benchmarks/${encodeURIComponent(id)}/report?format=json`)));
  const scorecard = (exp) =>
    element(
      "table",
      { class: "scorecard" },
      element("tr", {}, element("th", {}, exp.experiment_id), ...METRICS.slice(0, 4).map(([, label]) => element("th", {}, label))),
      ...exp.strategies_used.map((v) =>
        element("tr", {}, element("td", {}, v), ...METRICS.slice(0, 4).map(([key]) => element("td", {}, figure(exp.aggregate_metrics[v]?.[key])))),
      ),
    );
  const cell = (exp, variant, question) => {
    const found = exp.results[variant]?.find((r) => r.question === question);
    return found ? `${firstHit(found)}, recall ${figure(found.metrics.recall)}` : "not asked";
  };
  const questionsAsked = [...new Set([...Object.values(a.results), ...Object.values(b.results)].flatMap((list) => list.map((r) => r.question)))];
  const rows = questionsAsked.map((question) =>
    element(
      "tr",
      { "data-question": question },
      element("td", {}, question),
      ...[a, b].map((exp) =>
        element("td", {}, ...exp.strategies_used.flatMap((v) => [element("div", { "data-strategy": v }, `${v}: ${cell(exp, v, question)}`)])),
      ),
    ),
  );
  result.replaceChildren(
    element("h4", {}, `${a.experiment_id} beside ${b.experiment_id}`),
    element("div", { class: "side-by-side" }, scorecard(a), scorecard(b)),
    element(
      "table",
      { class: "scorecard comparison" },
      element("tr", {}, element("th", {}, "question"), element("th", {}, a.experiment_id), element("th", {}, b.experiment_id)),
      ...rows,
    ),
  );
}

wireUpload();
Promise.all([loadDocuments(), loadStrategies()]).catch((error) => status(error.message, true));
