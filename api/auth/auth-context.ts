import type { KeyMode, Plan } from '../../store/types.ts';

/** Who is calling: set by the auth plugin on every authenticated request. */
export interface AuthContext {
  accountId: string;
  keyId: string;
  mode: KeyMode;
  plan: Plan;
  /**
   * A preview token's caller (api/previews/preview-token.ts), not an API key's: it may call the
   * routes marked `preview` and nothing else.
   */
  preview?: true;
}
