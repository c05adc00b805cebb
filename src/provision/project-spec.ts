/**
 * The `project,topic1,topic2:sub1:sub2` format of the community emulator images
 * (PUBSUB_PROJECT1, PUBSUB_PROJECT2, …): a project, then topics, each with its subscriptions.
 */
import { subscriptionFromProto, topicFromProto } from "../rpc/convert.ts";
import { ProvisionError, expandName, type Plan } from "./plan.ts";

export function planFromSpec(spec: string): Plan {
  const quoted = JSON.stringify(spec.length > 200 ? `${spec.slice(0, 200)}…` : spec);
  const bad = (why: string) => new ProvisionError(`provisioning spec ${quoted}: ${why}`);
  const [project, ...topics] = spec.trim().split(",").map((s) => s.trim());
  if (!project) throw bad("starts with the project id (project,topic1,topic2:sub1:sub2)");
  if (project.includes(":") || project.includes("/")) throw bad(`"${project}" is not a project id; the spec starts with the project`);
  if (topics.length === 0) throw bad("names no topic (project,topic1,topic2:sub1:sub2)");
  const plan: Plan = { topics: [], subscriptions: [] };
  for (const item of topics) {
    const [topic, ...subs] = item.split(":");
    if (!topic || subs.some((s) => !s)) throw bad(`empty name in "${item}"`);
    const topicName = expandName(project, "topics", topic);
    plan.topics.push({ where: `provisioning spec ${quoted}, topic "${topic}"`, resource: topicFromProto({ name: topicName }) });
    for (const sub of subs) {
      plan.subscriptions.push({
        where: `provisioning spec ${quoted}, subscription "${sub}"`,
        resource: subscriptionFromProto({ name: expandName(project, "subscriptions", sub), topic: topicName }),
      });
    }
  }
  return plan;
}
