// Validate an OpenRPC document with the OpenRPC project's own validator.
// Usage: node validate.mjs FILE — exit 0 when valid; else the errors on stderr, exit 1.
import { readFileSync } from "node:fs";
import { validateOpenRPCDocument } from "@open-rpc/schema-utils-js";

const doc = JSON.parse(readFileSync(process.argv[2], "utf8"));
const result = validateOpenRPCDocument(doc);
if (result === true) {
  console.log(`valid OpenRPC ${doc.openrpc} document: ${doc.methods.length} methods`);
} else {
  console.error(result instanceof Error ? result.message : JSON.stringify(result, null, 2));
  process.exit(1);
}
