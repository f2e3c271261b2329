import { createHmac } from "node:crypto";
import { SignJWT } from "jose";
import { afterEach, describe, expect, it, vi } from "vitest";
import { tokenService, verifyHs256 } from "../src/auth/tokens";

const key = new TextEncoder().encode("a test secret that is long enough for HS256 tokens");
const now = 1_900_000_000;
const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const signed = (header: object, payload: object, secret: Uint8Array = key) => {
  const unsigned = `${b64(header)}.${b64(payload)}`;
  return `${unsigned}.${createHmac("sha256", secret).update(unsigned).digest("base64url")}`;
};
const claims = { sub: "us-1", uid: 1, csrf: "c", iat: now - 10, exp: now + 60 };

describe("access token check (HS256 by node:crypto)", () => {
  it("accepts what jose signs, with its claims", async () => {
    const token = await new SignJWT({ uid: 7, admin: true, csrf: "x" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("us-7")
      .setIssuedAt(now - 5)
      .setExpirationTime(now + 300)
      .sign(key);
    expect(verifyHs256(token, key, now)).toMatchObject({ sub: "us-7", uid: 7, admin: true, csrf: "x" });
  });

  it("refuses another key, another algorithm, 'none' and critical extensions", () => {
    expect(verifyHs256(signed({ alg: "HS256" }, claims), key, now)).not.toBeNull();
    expect(
      verifyHs256(signed({ alg: "HS256" }, claims, new TextEncoder().encode("other")), key, now),
    ).toBeNull();
    expect(verifyHs256(signed({ alg: "HS512" }, claims), key, now)).toBeNull();
    expect(verifyHs256(`${b64({ alg: "none" })}.${b64(claims)}.`, key, now)).toBeNull();
    expect(verifyHs256(signed({ alg: "HS256", crit: ["exp"] }, claims), key, now)).toBeNull();
  });

  it("refuses a changed payload and a signature written any other way", () => {
    const token = signed({ alg: "HS256" }, claims);
    const [head, , signature] = token.split(".");
    expect(verifyHs256(`${head}.${b64({ ...claims, uid: 2 })}.${signature}`, key, now)).toBeNull();
    expect(verifyHs256(`${token}=`, key, now)).toBeNull();
    expect(verifyHs256(`${token}A`, key, now)).toBeNull();
    expect(verifyHs256(`${token}.x`, key, now)).toBeNull();
    expect(verifyHs256("not a token", key, now)).toBeNull();
  });

  it("refuses expired, not yet valid, and tokens without expiry, issue time or subject", () => {
    expect(verifyHs256(signed({ alg: "HS256" }, { ...claims, exp: now }), key, now)).toBeNull();
    expect(verifyHs256(signed({ alg: "HS256" }, { ...claims, nbf: now + 1 }), key, now)).toBeNull();
    expect(verifyHs256(signed({ alg: "HS256" }, { ...claims, nbf: now }), key, now)).not.toBeNull();
    const { exp: _e, ...endless } = claims;
    const { iat: _i, ...undated } = claims;
    const { sub: _s, ...nobody } = claims;
    for (const payload of [endless, undated, nobody])
      expect(verifyHs256(signed({ alg: "HS256" }, payload), key, now)).toBeNull();
  });

  describe("a process's check of a session's token (checked once, then remembered)", () => {
    afterEach(() => vi.useRealTimers());
    // With a secret of its own the service never asks the database.
    const service = () =>
      tokenService(null as never, { secret: "a test secret of thirty-two chars!", ttlSeconds: 60 });

    it("answers the same claims again, and refuses the token once it has expired", async () => {
      vi.useFakeTimers({ now: now * 1000 });
      const tokens = service();
      const { accessToken } = await tokens.sign({ id: 7, uuid: "us-7", isAdmin: false });
      const claims = await tokens.verify(accessToken);
      expect(claims).toMatchObject({ sub: "us-7", uid: 7, admin: false });
      expect(await tokens.verify(accessToken)).toEqual(claims);
      vi.setSystemTime((now + 59) * 1000);
      expect(await tokens.verify(accessToken)).toEqual(claims);
      vi.setSystemTime((now + 60) * 1000);
      expect(await tokens.verify(accessToken)).toBeNull();
    });

    it("still refuses a token changed after its original was accepted", async () => {
      vi.useFakeTimers({ now: now * 1000 });
      const tokens = service();
      const { accessToken } = await tokens.sign({ id: 7, uuid: "us-7", isAdmin: false });
      expect(await tokens.verify(accessToken)).not.toBeNull();
      const [head, body, signature] = accessToken.split(".");
      const admin = b64({ ...JSON.parse(Buffer.from(body, "base64url").toString()), admin: true });
      expect(await tokens.verify(`${head}.${admin}.${signature}`)).toBeNull();
      expect(await tokens.verify(`${accessToken}A`)).toBeNull();
    });
  });
});
