/**
 * Creates the declared topics and subscriptions before the emulator serves. Every entry is first
 * applied to a scratch broker with the same rules, so a bad one stops the start naming it and
 * nothing is half-created. Resources that already exist are left as they are.
 */
import { Broker } from "../core/broker.ts";
import type { Config } from "../runtime/config.ts";
import { planFromFile } from "./config-file.ts";
import { ProvisionError, mergePlans, type Entry, type Plan } from "./plan.ts";
import { planFromSpec } from "./project-spec.ts";

/** The plan of the config file and every spec; throws ProvisionError on a malformed one. */
export function loadPlan(config: Pick<Config, "configFile" | "provision">): Plan {
  const plans = config.provision.map(planFromSpec);
  if (config.configFile) plans.push(planFromFile(config.configFile));
  return mergePlans(plans);
}

export interface ProvisionResult {
  created: string[];
  existing: string[];
}

export function provision(broker: Broker, plan: Plan): ProvisionResult {
  const exists = (get: () => unknown) => {
    try {
      get();
      return true;
    } catch {
      return false;
    }
  };
  const topicExists = (name: string) => exists(() => broker.topics.get(name));
  const subExists = (name: string) => exists(() => broker.subscriptions.get(name));

  const scratch = new Broker({ clock: broker.clock, quotas: broker.quotas });
  const inScratch = (name: string) => exists(() => scratch.topics.get(name));
  const attempt = <R>(entry: Entry<R>, create: () => void) => {
    try {
      create();
    } catch (e) {
      throw new ProvisionError(`${entry.where}: ${(e as Error).message}`);
    }
  };
  try {
    for (const t of plan.topics) {
      if (topicExists(t.resource.name) && !inScratch(t.resource.name)) scratch.topics.create(broker.topics.get(t.resource.name));
      else attempt(t, () => scratch.topics.create(t.resource));
    }
    for (const s of plan.subscriptions) {
      // Topics the plan refers to but does not declare may already exist in the emulator.
      for (const name of [s.resource.topic, s.resource.deadLetterPolicy?.deadLetterTopic]) {
        if (name && !inScratch(name) && topicExists(name)) scratch.topics.create(broker.topics.get(name));
      }
      if (!subExists(s.resource.name)) attempt(s, () => scratch.subscriptions.create(s.resource));
    }
  } finally {
    scratch.reset();
  }

  const result: ProvisionResult = { created: [], existing: [] };
  for (const t of plan.topics) {
    if (topicExists(t.resource.name)) result.existing.push(t.resource.name);
    else attempt(t, () => result.created.push(broker.topics.create(t.resource).name));
  }
  for (const s of plan.subscriptions) {
    if (subExists(s.resource.name)) result.existing.push(s.resource.name);
    else attempt(s, () => result.created.push(broker.subscriptions.create(s.resource).name));
  }
  return result;
}
