import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  agingBucket,
  divideRounded,
  dueDate,
  exactMinor,
  formatMinor,
  percentOf,
  sharesComplete,
  splitEarning,
  statementTotals,
  toMinor,
  visitFees,
} from "./money";

describe("amounts in minor units", () => {
  it("reads and writes decimals exactly, in the currency's digits", () => {
    expect(toMinor("1850.00", "EUR")).toBe(185_000n);
    expect(toMinor(1850.5, "EUR")).toBe(185_050n);
    expect(toMinor("0.1", "EUR") + toMinor("0.2", "EUR")).toBe(toMinor("0.3", "EUR"));
    expect(formatMinor(225_552n, "EUR")).toBe("2255.52");
    expect(formatMinor(-7_400n, "EUR")).toBe("-74.00");
    expect(formatMinor(5n, "EUR")).toBe("0.05");
  });
  it("takes a typed amount only with the currency's decimals", () => {
    expect(exactMinor("12.50", "EUR")).toBe(1_250n);
    expect(exactMinor("12", "HUF")).toBe(12n);
    expect(exactMinor("12.50", "HUF")).toBeNull();
  });
  it("keeps whole forints: HUF rounds half away from zero", () => {
    expect(toMinor("1000.50", "HUF")).toBe(1001n);
    expect(toMinor("1000.49", "HUF")).toBe(1000n);
    expect(formatMinor(1001n, "HUF")).toBe("1001");
    expect(toMinor("-2.5", "HUF")).toBe(-3n);
  });
  it("rounds half away from zero when dividing", () => {
    expect(divideRounded(5n, 2n)).toBe(3n);
    expect(divideRounded(-5n, 2n)).toBe(-3n);
    expect(divideRounded(4n, 3n)).toBe(1n);
    expect(percentOf(37_000n, 80)).toBe(29_600n);
    expect(percentOf(177_600n, 27)).toBe(47_952n);
  });
});

describe("the worked example of issue 45", () => {
  it("fee 1,850.00 EUR over 5 mandatory visits, 80 % paid, 27 % VAT, due in 45 days, paid in part", () => {
    const fees = visitFees(toMinor("1850.00", "EUR"), [11, 12, 13, 14, 15]);
    expect([...fees.values()].map((fee) => formatMinor(fee, "EUR"))).toEqual([
      "370.00",
      "370.00",
      "370.00",
      "370.00",
      "370.00",
    ]);
    // Six billable visits (a patient's five and another's first).
    const earnings = [11, 12, 13, 14, 15, 11].map((visit) => splitEarning(fees.get(visit) as bigint, 80));
    const earned = earnings.reduce((sum, e) => sum + e.payable + e.heldBack, 0n);
    const heldBack = earnings.reduce((sum, e) => sum + e.heldBack, 0n);
    expect(formatMinor(earned, "EUR")).toBe("2220.00");
    expect(formatMinor(heldBack, "EUR")).toBe("444.00");
    const totals = statementTotals(
      earnings.map((e) => e.payable),
      27,
    );
    expect(Object.fromEntries(Object.entries(totals).map(([k, v]) => [k, formatMinor(v, "EUR")]))).toEqual({
      net: "1776.00",
      vat: "479.52",
      gross: "2255.52",
    });
    const due = dueDate("2026-12-01", 45);
    expect(due).toBe("2027-01-15");
    const open = totals.gross - toMinor("2000.00", "EUR");
    expect(formatMinor(open, "EUR")).toBe("255.52");
    expect(agingBucket(due, "2027-01-31")).toBe("days1to30");
  });
});

describe("visit fees", () => {
  it("gives the last mandatory visit the rounding rest", () => {
    const fees = visitFees(toMinor("1000.00", "EUR"), [1, 2, 3]);
    expect([...fees.values()]).toEqual([33_333n, 33_333n, 33_334n]);
    const forints = visitFees(toMinor("100000", "HUF"), [1, 2, 3]);
    expect([...forints.values()]).toEqual([33_333n, 33_333n, 33_334n]);
  });
  it("follows the plan's shares in percent instead; a visit without one earns nothing", () => {
    const shares = new Map([
      [1, 10],
      [2, 33.33],
      [4, 56.67],
    ]);
    expect(sharesComplete(shares.values())).toBe(true);
    expect(sharesComplete([10, 33.33, 56.66])).toBe(false);
    const fees = visitFees(toMinor("1850.00", "EUR"), [1, 2, 3, 4], shares);
    expect(Object.fromEntries([...fees].map(([v, fee]) => [v, formatMinor(fee, "EUR")]))).toEqual({
      1: "185.00",
      2: "616.61",
      4: "1048.39",
    });
    expect(fees.has(3)).toBe(false);
  });
  it("property: the fees of a plan add up to the patient fee", () => {
    fc.assert(
      fc.property(fc.bigInt({ min: 0n, max: 10n ** 12n }), fc.integer({ min: 1, max: 40 }), (fee, visits) => {
        const ids = Array.from({ length: visits }, (_, i) => i + 1);
        const fees = [...visitFees(fee, ids).values()];
        expect(fees.reduce((sum, f) => sum + f, 0n)).toBe(fee);
        expect(fees.every((f) => f >= 0n)).toBe(true);
      }),
    );
  });
});

describe("earnings and statements", () => {
  it("property: every earning's amount is its payable part plus what is held back", () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: -(10n ** 12n), max: 10n ** 12n }),
        fc.integer({ min: 0, max: 100 }),
        (amount, paid) => {
          const { payable, heldBack } = splitEarning(amount, paid);
          expect(payable + heldBack).toBe(amount);
          if (paid === 100) expect(heldBack).toBe(0n);
          if (paid === 0) expect(payable).toBe(0n);
        },
      ),
    );
  });
  it("takes VAT once on the net, so a reversing line lowers it", () => {
    const totals = statementTotals([29_600n, 29_600n, -29_600n], 27);
    expect(totals).toEqual({ net: 29_600n, vat: 7_992n, gross: 37_592n });
    expect(statementTotals([], 27)).toEqual({ net: 0n, vat: 0n, gross: 0n });
  });
  it("ages an open amount by the days past its due date", () => {
    expect(agingBucket("2027-01-15", "2027-01-15")).toBe("notDue");
    expect(agingBucket("2027-01-15", "2027-01-16")).toBe("days1to30");
    expect(agingBucket("2027-01-15", "2027-02-14")).toBe("days1to30");
    expect(agingBucket("2027-01-15", "2027-02-15")).toBe("days31to60");
    expect(agingBucket("2027-01-15", "2027-04-15")).toBe("days61to90");
    expect(agingBucket("2027-01-15", "2027-04-16")).toBe("over90");
  });
});
