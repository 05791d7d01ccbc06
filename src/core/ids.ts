/**
 * Our record ids: MongoDB ObjectIds as 24 lower-case hex digits, the form every id we hand out
 * takes. Pure module.
 */

/** A whole string that is an id as we write them (lower-case hex). */
export const OBJECT_ID = /^[0-9a-f]{24}$/;

/** A whole string that is an id in either case (as an author may type one back). */
export const OBJECT_ID_ANY_CASE = /^[0-9a-f]{24}$/i;

/** Whether the string is an id as we write them (lower-case hex only). */
export const isObjectId = (s: string): boolean => OBJECT_ID.test(s);
