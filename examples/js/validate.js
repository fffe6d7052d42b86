// Validate JSON documents with ajv (draft 2020-12, strict mode, all errors) against the
// library's schema file, the way a front-end in another language would:
//
//   node validate.js ../../schema/shanghai-rummy.schema.json ../../docs/samples/*.json
//
// It prints one JSON line: how many documents are valid, and what ajv says of a damaged
// Discard ({"card": "11H"}); it exits with 1 if any document is invalid.
"use strict";
const fs = require("node:fs");
const Ajv2020 = require("ajv/dist/2020");

const [schemaFile, ...files] = process.argv.slice(2);
const ajv = new Ajv2020({ strict: true, allErrors: true });
const validate = ajv.compile(JSON.parse(fs.readFileSync(schemaFile, "utf8")));
const invalid = {};
for (const file of files) {
  if (!validate(JSON.parse(fs.readFileSync(file, "utf8")))) invalid[file] = validate.errors.slice(0, 3);
}
const damaged = { format: "shanghai-rummy", version: 1, type: "action", data: { type: "discard", seat: 1, card: "11H" } };
validate(damaged);
console.log(JSON.stringify({
  valid: files.length - Object.keys(invalid).length,
  invalid,
  damaged_discard: { ajv_errors: validate.errors.length, errors: validate.errors.map((error) => error.instancePath) },
}));
process.exit(Object.keys(invalid).length ? 1 : 0);
