// Holds (Vormerkungen, issue 12 part 2; ADR 0059): a member queues for a work with no free copy.
export { holdsResource, holdResource, queueResource, type HoldResourceOptions } from './resource.ts';
export { createHoldStore, type HoldStoreOptions } from './store.ts';
export { HOLD_DAYS, lockWork, settleWork, freeCopies, type LockedWork } from './queue.ts';
export type { Hold, HoldStore, PlaceOutcome, PlaceRefusal, CancelOutcome } from './model.ts';
export { holdsPath, holdPath, queuePath, holdsPathById } from './access.ts';
export { holdButton } from './hold-button.ts';
export { takeKeptCopy } from './circulation.ts';
export { lockWorkForPerson, openHolds } from './queue.ts';
export { holdsAsOf } from './read.ts';
export { settle, type SettledHold } from './settle.ts';
