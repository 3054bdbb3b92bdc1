export { sessionResource } from './resource.ts';
export { sessionView, loansPath, type SessionModel } from './view.ts';
export { loginForm, logoutButton } from './form.ts';
export { safeReturnPath, returnPathOf, SESSION_PATH, RETURN_FIELD } from './return-path.ts';
export { sessionStrings, type SessionStrings } from './strings.ts';
export { sessionErrorSlots } from './error-slots.ts';
