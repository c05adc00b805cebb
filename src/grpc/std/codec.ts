/** The standard services' protobufjs codecs, over descriptors.ts's types. */
import { echo } from "../../core/bounded.ts";
import { Code } from "../status.ts";
import { Refusal, STD_MAX_REQUEST, type StdHandler } from "./contract.ts";
import { descriptors } from "./descriptors.ts";

const TO_OBJECT = { longs: Number, enums: String, defaults: false, oneofs: true };

export function codec(requestType: string, responseType: string): Pick<StdHandler, "decode" | "encode"> {
  const types = descriptors();
  const request = types.type(requestType);
  const response = types.type(responseType);
  return {
    decode(b) {
      if (b.length > STD_MAX_REQUEST) return new Refusal({ code: Code.RESOURCE_EXHAUSTED, details: `Received message larger than max (${b.length} vs. ${STD_MAX_REQUEST})` });
      try {
        return request.toObject(request.decode(b), TO_OBJECT);
      } catch (e) {
        return new Refusal({ code: Code.INVALID_ARGUMENT, details: `The request could not be decoded as ${requestType}: ${echo((e as Error).message)}` });
      }
    },
    encode: (v) => response.encode(response.fromObject(v as Record<string, unknown>)).finish(),
  };
}
