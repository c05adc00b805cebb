/**
 * The attributes an export writes with write_metadata: the message's attributes and, when set, its
 * ordering key as `ordering_key` — the proto's "all other message properties (other than data)"
 * of BigQuery, Bigtable and Cloud Storage Avro alike. The ordering key wins over an attribute of
 * that name, as it is the message's own property.
 */
import type { StoredMessage } from "../message.ts";
import { dict } from "../safe-keys.ts";

export function metadataAttributes(m: StoredMessage): Record<string, string> {
  const attributes = Object.assign(dict<string>(), m.attributes);
  if (m.orderingKey) attributes.ordering_key = m.orderingKey;
  return attributes;
}
