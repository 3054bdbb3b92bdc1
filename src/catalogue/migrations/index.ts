// The catalogue's migration set (both engines). Append new migrations; never edit applied ones.
import type { MigrationSet } from '../../storage/index.ts';
import { catalogueTables } from './0001-catalogue.ts';
import { searchIndexes } from './0002-search-indexes.ts';
import { changeCounter } from './0003-change-counter.ts';
import { loginFailureTables } from './0004-login-failures.ts';
import { liveRowCounts } from './0005-live-row-counts.ts';
import { lifeDatesVersion } from './0006-life-dates-version.ts';
import { listRanks } from './0007-list-ranks.ts';
import { personListRanks } from './0008-person-list-ranks.ts';
import { counterFirst } from './0009-counter-first.ts';
import { circulationTables } from './0010-circulation.ts';
import { accountStates } from './0011-account-states.ts';
import { externalIds } from './0012-external-ids.ts';
import { publicPersons } from './0013-public-persons.ts';
import { termIndexes } from './0014-term-index.ts';
import { loanRenewedAt } from './0015-loan-renewed-at.ts';
import { sessionTable } from './0016-sessions.ts';
import { searchStems } from './0017-search-stems.ts';
import { oaiDatestamps } from './0018-oai-datestamps.ts';
import { cardNumbers } from './0019-card-numbers.ts';
import { circulationRules } from './0020-circulation-rules.ts';
import { notices } from './0021-notices.ts';
import { staffListIndexes } from './0023-staff-list-indexes.ts';
import { worksDecade } from './0025-works-decade.ts';
import { changeLog } from './0022-change-log.ts';
import { countsOnlyWhenTheyChange } from './0028-counts-only-when-they-change.ts';
import { subjectsByWhatChanged } from './0029-subjects-by-what-changed.ts';
import { countsWithoutAHotRow } from './0030-counts-without-a-hot-row.ts';
import { personDecades } from './0031-person-decades.ts';
import { triggerEarlyExits } from './0032-trigger-early-exits.ts';
import { genericDecadePlans } from './0033-generic-decade-plans.ts';
import { decadeTerms } from './0034-decade-terms.ts';
import { linkedWorkKeys } from './0035-linked-work-keys.ts';

export const catalogueMigrations: MigrationSet = (context) => ({
  '0001-catalogue': catalogueTables(context),
  '0002-search-indexes': searchIndexes(context),
  '0003-change-counter': changeCounter(context),
  '0004-login-failures': loginFailureTables(context),
  '0005-live-row-counts': liveRowCounts(context),
  '0006-life-dates-version': lifeDatesVersion(context),
  '0007-list-ranks': listRanks(context),
  '0008-person-list-ranks': personListRanks(context),
  '0009-counter-first': counterFirst(context),
  '0010-circulation': circulationTables(context),
  '0011-account-states': accountStates(context),
  '0012-external-ids': externalIds(context),
  '0013-public-persons': publicPersons(context),
  '0014-term-index': termIndexes(context),
  '0015-loan-renewed-at': loanRenewedAt(context),
  '0016-sessions': sessionTable(context),
  '0017-search-stems': searchStems(context),
  '0018-oai-datestamps': oaiDatestamps(context),
  '0019-card-numbers': cardNumbers(context),
  '0020-circulation-rules': circulationRules(context),
  '0021-notices': notices(context),
  '0023-staff-list-indexes': staffListIndexes(),
  '0025-works-decade': worksDecade(context),
  '0022-change-log': changeLog(context),
  '0028-counts-only-when-they-change': countsOnlyWhenTheyChange(context),
  '0029-subjects-by-what-changed': subjectsByWhatChanged(context),
  '0030-counts-without-a-hot-row': countsWithoutAHotRow(context),
  '0031-person-decades': personDecades(context),
  '0032-trigger-early-exits': triggerEarlyExits(context),
  '0033-generic-decade-plans': genericDecadePlans(context),
  '0034-decade-terms': decadeTerms(context),
  '0035-linked-work-keys': linkedWorkKeys(context),
});
export { searchStems } from './0017-search-stems.ts';
