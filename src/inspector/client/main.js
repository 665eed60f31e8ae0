// The inspector's browser entry, bundled by ../build-client.ts into client-bundle.generated.ts.
import { comparePage } from "./compare-page.js";
import { mountDeleteRun } from "./delete-run.js";
import { runPage } from "./run-page.js";
import { runsPage } from "./runs-page.js";

const page = document.body.dataset.page;
if (page === "runs") void runsPage();
if (page === "run") {
  void runPage(document.body.dataset.runId);
  mountDeleteRun(document.body.dataset.runId);
}
if (page === "compare") void comparePage(document.body.dataset.a, document.body.dataset.b);
