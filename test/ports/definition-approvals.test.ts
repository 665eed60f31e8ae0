import { env } from "cloudflare:workers";
import { D1DefinitionApprovals } from "../../src/adapters/d1/d1-definition-approvals.ts";
import { MemoryDefinitionApprovals } from "../../src/adapters/memory/memory-definition-approvals.ts";
import { definitionApprovalsContract } from "./definition-approvals.contract.ts";

definitionApprovalsContract("MemoryDefinitionApprovals", () => new MemoryDefinitionApprovals());
definitionApprovalsContract("D1DefinitionApprovals", () => new D1DefinitionApprovals(env.DB));
