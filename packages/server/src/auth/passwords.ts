import { type Algorithm, hash, verify } from "@node-rs/argon2";
import { dictionary } from "@zxcvbn-ts/language-common";

/** argon2id (value 2 of the library's const enum, which isolated modules cannot import). */
const options = { algorithm: 2 as Algorithm };

export function hashPassword(password: string): Promise<string> {
  return hash(password, options);
}

// A real hash to verify against when the e-mail is unknown, so both failures take the same time.
let decoy: Promise<string> | null = null;

export async function verifyPassword(passwordHash: string | null, password: string): Promise<boolean> {
  if (!passwordHash) {
    decoy ??= hashPassword("decoy password that never matches");
    await verify(await decoy, password).catch(() => false);
    return false;
  }
  return verify(passwordHash, password).catch(() => false);
}

/** The column a typed password sets (users and monitors); an empty or missing one keeps the stored hash. */
export async function typedPasswordHash(
  password: string | null | undefined,
): Promise<{ passwordHash?: string }> {
  return typeof password === "string" && password !== ""
    ? { passwordHash: await hashPassword(password) }
    : {};
}

let common: Set<string> | null = null;

/**
 * Whether a password is one of the most common ones (the maintained list of @zxcvbn-ts, about
 * 50,000 passwords from breaches), ignoring case. Loaded on first use.
 */
export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary["passwords-common"].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}
