import type { RefreshTokenStore } from "./auth/refresh-tokens";
import type { TokenService } from "./auth/tokens";
import type { Config } from "./config";
import type { Db } from "./db/client";

/** What route modules need, built once by buildApp. */
export type Deps = {
  db: Db;
  config: Config;
  tokens: TokenService;
  refreshTokens: RefreshTokenStore;
};
