import type { EnvironmentKind } from '../../config.js';
import type { PresentContext } from './presenter.js';

/** Who is asking, and where the links of the answer point. */
export interface LedgerScope extends PresentContext {
  organizationId: string;
  environmentId: string;
  environment: EnvironmentKind;
}
