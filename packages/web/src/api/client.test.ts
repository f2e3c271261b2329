import { afterEach, describe, expect, it, vi } from "vitest";
import { stubFetch } from "../screens/test-utils";
import { api } from "./client";

const envelope = (status: number, data: unknown, retryAfter?: string) =>
  new Response(
    JSON.stringify({
      header: {
        result: status < 400 ? "success" : "error",
        errorMessage: status < 400 ? null : "You have 4 searches or exports running at once.",
        errorCode: status < 400 ? null : "RATE_LIMITED",
        errorDetail: null,
        fieldErrors: [],
        requestId: "req-1",
      },
      data,
    }),
    { status, headers: retryAfter === undefined ? {} : { "retry-after": retryAfter } },
  );

afterEach(() => vi.unstubAllGlobals());

describe("a read refused for now (issue 46, point 14)", () => {
  it("is asked again after the Retry-After it names, so a page opening several lists shows them", async () => {
    let asked = 0;
    const calls = stubFetch(() => (asked++ === 0 ? envelope(429, null, "0") : envelope(200, { items: [1] })));
    await expect(api.get("worklist")).resolves.toEqual({ items: [1] });
    expect(calls).toHaveLength(2);
  });

  it("gives up after two waits, and never repeats a write", async () => {
    const reads = stubFetch(() => envelope(429, null, "0"));
    await expect(api.get("worklist")).rejects.toMatchObject({ status: 429 });
    expect(reads).toHaveLength(3);
    const writes = stubFetch(() => envelope(429, null, "0"));
    await expect(api.post("statements", {})).rejects.toMatchObject({ status: 429 });
    expect(writes).toHaveLength(1);
  });
});
