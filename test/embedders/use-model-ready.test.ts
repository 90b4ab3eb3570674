// The bundled model is loaded only once its compute backend is ready. @energetic-ai/embeddings'
// initModel reads the weights beside the backend's start-up (wasm), not after it, and on a busy
// machine the weights were read first: "Backend 'wasm' has not yet been initialized" (a
// fresh-clone `npm test` beside a CPU-heavy process, in context-relevance-example-corpus.test.ts).
import { test } from "node:test";
import assert from "node:assert/strict";
import * as coreModule from "@energetic-ai/core";
import { loadUseModel } from "../../src/embedders/use-model.js";

/** TensorFlow.js's engine calls, which the package's type declarations leave out. */
const core = coreModule as unknown as {
  ready(): Promise<void>;
  setBackend(name: string): Promise<boolean>;
  registerBackend(name: string, factory: () => Promise<unknown>, priority: number): boolean;
  engine(): { registryFactory: Record<string, { factory: () => Promise<unknown> }>; removeBackend(name: string): void };
};

test("the bundled model loads when its backend starts slower than its weights are read", async () => {
  // The wasm backend started again, slowly, as a loaded machine starts it: its factory waits first.
  await core.ready();
  const engine = core.engine();
  const start = engine.registryFactory.wasm!.factory;
  engine.removeBackend("wasm");
  core.registerBackend("wasm", async () => (await new Promise((resolve) => setTimeout(resolve, 1500)), start()), 2);
  void core.setBackend("wasm");
  const model = await loadUseModel();
  const [vector] = await model.embed(["The harbour light is lit at dusk."]);
  assert.equal(vector!.length, 512);
});
