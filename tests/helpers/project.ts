/** The one project every test's resources live in (core, in-process and child servers alike), and its names. */
export const PROJECT = "test-project";
export const PARENT = `projects/${PROJECT}`;

let counter = 0;
/** A name unique in this process, valid as a topic or subscription id. */
export const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${++counter}`;

export const topicPath = (id = unique("t")) => `${PARENT}/topics/${id}`;
export const subPath = (id = unique("s")) => `${PARENT}/subscriptions/${id}`;
export const snapPath = (id = unique("snap")) => `${PARENT}/snapshots/${id}`;
export const schemaPath = (id = unique("sch")) => `${PARENT}/schemas/${id}`;
