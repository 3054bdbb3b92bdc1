// Notices by e-mail (issue 20, ADR 0085): due soon, overdue (two reminders), hold ready, and the
// password reset's mail; planned once, claimed under a lease, sent once over SMTP.
export { createNoticeJob, startNoticeTimer, workerName, type NoticeJob, type NoticeRun } from './job.ts';
export { smtpMailer, type Mailer, type MailMessage, type SmtpSettings, type SmtpTls } from './mailer.ts';
export { DEFAULT_NOTICE_RULES, planNotices, type NoticeRules } from './plan.ts';
export { backoffMs, sendNotices, type SendReport } from './send.ts';
export { noticeText, resetText } from './texts.ts';
// The notices as resources (ADR 0092): a patron's and everyone's, read-only.
export { noticesResource } from './resource.ts';
export { createNoticeListStore, type NoticeListStore } from './list-store.ts';
export { NOTICES_PATH, personNoticesPath } from './paths.ts';
export { STATUS_NAMES } from './status.ts';
