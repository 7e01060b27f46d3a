import type { KeyMode, Plan } from '../../store/types.ts';

/** Who is calling: set by the auth plugin on every authenticated request. */
export interface AuthContext {
  accountId: string;
  keyId: string;
  mode: KeyMode;
  plan: Plan;
}
