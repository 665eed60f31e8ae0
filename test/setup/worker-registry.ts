// Loads the Worker entry before each test file, as workerd does before serving: its
// createWorker(...) call installs the repository's workflows (src/workflows.ts) in the wiring, so a
// test that reaches the API or wire(env) without the main module sees the same registry.
import "../../src/worker.ts";
