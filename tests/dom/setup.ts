// Preloaded only for `bun test tests/dom` (see scripts/test.ts): a browser-like global DOM breaks
// server code, so server tests never run with it.
import { GlobalRegistrator } from "@happy-dom/global-registrator";
import "../support/property-seed";

GlobalRegistrator.register({ url: "http://localhost:3000/" });
// React checks this to allow act() outside a test framework it knows.
(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
