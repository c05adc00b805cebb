/**
 * grpc.reflection.v1.ServerReflection and its v1alpha twin (older grpcurl, Postman): each request
 * on the stream gets one answer from the vendored descriptors (descriptors.ts). A file is sent
 * with those of its dependencies this stream has not been sent yet, as grpc-go does; a name,
 * file or extension that is not there is an error_response NOT_FOUND and the stream goes on.
 */
import { echo } from "../../core/bounded.ts";
import { Code } from "../status.ts";
import { descriptors, type ProtoFile } from "./descriptors.ts";
import { codec } from "./codec.ts";
import { Refusal, type Outbound, type StdCall, type StdHandler } from "./contract.ts";


interface Request {
  host?: string;
  fileByFilename?: string;
  fileContainingSymbol?: string;
  fileContainingExtension?: { containingType?: string; extensionNumber?: number };
  allExtensionNumbersOfType?: string;
  listServices?: string;
}

type Answer = Record<string, unknown>;

const notFound = (what: string): Answer => ({ errorResponse: { errorCode: Code.NOT_FOUND, errorMessage: echo(what, 256) } });

/** The answers of one stream, which remembers the files it has sent. */
function answerer(services: readonly string[]): (req: Request) => Answer {
  const sent = new Set<ProtoFile>();
  const withDependencies = (file: ProtoFile): Answer => {
    const out: Buffer[] = [];
    const visit = (f: ProtoFile, asked: boolean) => {
      if (sent.has(f) && !asked) return;
      sent.add(f);
      out.push(f.bytes);
      for (const d of f.dependencies) visit(d, false);
    };
    visit(file, true);
    return { fileDescriptorResponse: { fileDescriptorProto: out } };
  };
  return (req) => {
    const d = descriptors();
    if (req.listServices !== undefined) return { listServicesResponse: { service: services.map((name) => ({ name })) } };
    if (req.fileByFilename !== undefined) {
      const file = d.files.get(req.fileByFilename);
      return file ? withDependencies(file) : notFound(`file not found: ${req.fileByFilename}`);
    }
    if (req.fileContainingSymbol !== undefined) {
      const file = d.symbols.get(req.fileContainingSymbol.replace(/^\./, ""));
      return file ? withDependencies(file) : notFound(`symbol not found: ${req.fileContainingSymbol}`);
    }
    if (req.fileContainingExtension !== undefined) {
      const { containingType = "", extensionNumber = 0 } = req.fileContainingExtension;
      const file = d.extensions.get(containingType.replace(/^\./, ""))?.get(extensionNumber);
      return file ? withDependencies(file) : notFound(`extension not found: ${containingType} ${extensionNumber}`);
    }
    if (req.allExtensionNumbersOfType !== undefined) {
      const type = req.allExtensionNumbersOfType.replace(/^\./, "");
      if (!d.messages.has(type)) return notFound(`type not found: ${type}`);
      return { allExtensionNumbersResponse: { baseTypeName: type, extensionNumber: [...(d.extensions.get(type)?.keys() ?? [])] } };
    }
    return { errorResponse: { errorCode: Code.INVALID_ARGUMENT, errorMessage: "The request names no message_request." } };
  };
}

function open(out: Outbound, services: readonly string[]): StdCall {
  const answer = answerer(services);
  let ended = false;
  return {
    message(request) {
      if (ended) return;
      if (request instanceof Refusal) return void ((ended = true), out.end(request.status));
      const req = request as Request;
      out.send({ validHost: req.host ?? "", originalRequest: req, ...answer(req) });
    },
    halfClose() {
      ended = true;
      out.end({ code: Code.OK, details: "" });
    },
    cancel() {
      ended = true;
    },
  };
}

/** `services`: every service on the port, as list_services names them. */
export function reflectionHandler(pkg: string, services: readonly string[]): StdHandler {
  return { ...codec(`${pkg}.ServerReflectionRequest`, `${pkg}.ServerReflectionResponse`), open: (out) => open(out, services) };
}
