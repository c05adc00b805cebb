/** Page tokens are opaque to clients; ours are the base64 of the last name of the previous page (names are ASCII). */
import { echo } from "../bounded.ts";
import { invalid } from "../errors.ts";

export interface Page<T> {
  items: T[];
  nextPageToken: string;
}

const MAX_PAGE = 1000;

export function paginate<T>(items: T[], nameOf: (t: T) => string, pageSize = 0, pageToken = ""): Page<T> {
  if (pageSize < 0) throw invalid(`Invalid page_size: ${pageSize}. It must not be negative.`);
  const size = pageSize > 0 ? Math.min(pageSize, MAX_PAGE) : MAX_PAGE;
  let after = "";
  if (pageToken) {
    try {
      after = atob(pageToken);
    } catch {
      after = "";
    }
    if (!after.startsWith("projects/")) throw invalid(`Invalid page_token: ${echo(pageToken)}.`);
  }
  const sorted = items.map((t) => [nameOf(t), t] as const).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  let start = 0;
  if (after) while (start < sorted.length && sorted[start][0] <= after) start++;
  const slice = sorted.slice(start, start + size);
  const more = start + size < sorted.length;
  return {
    items: slice.map(([, t]) => t),
    nextPageToken: more ? btoa(slice[slice.length - 1][0]) : "",
  };
}
