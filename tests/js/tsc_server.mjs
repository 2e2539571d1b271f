// tsc, kept running for the suite (tests/typescript.py): reads one JSON request a line,
// {"cwd": folder, "args": tsc's command-line arguments}, and writes one JSON line back,
// {"status": tsc's exit status, "stdout": what tsc prints}. Each request is the compilation
// `tsc ARGS` run in `cwd` does (typescript's executeCommandLine -> performCompilation ->
// emitFilesAndReportErrors, not pretty, as under a pipe), but TypeScript is loaded once and
// its own lib files (lib.es2022.d.ts, ...) are parsed and bound once per set of options,
// which is most of a cold run's CPU. Every file outside TypeScript's lib folder (the packages'
// declarations, the consumers) is read and parsed anew for each request.
import { createRequire } from "node:module";
import path from "node:path";
import readline from "node:readline";

const ts = createRequire(import.meta.url)(process.argv[2]);
// ts.sys keeps the folder it first saw; each request is run in its own (process.chdir)
ts.sys.getCurrentDirectory = () => process.cwd();

/** Options this server does not run as tsc would: a request that gives one fails loudly. */
const REFUSED = [
  "build", "project", "watch", "incremental", "composite", "help", "all", "version", "init",
  "pretty", "locale", "showConfig", "listFilesOnly", "generateTrace", "diagnostics",
  "extendedDiagnostics", "listFiles", "explainFiles", "listEmittedFiles", "tsBuildInfoFile",
];

const libraries = new Map(); // options -> lib file -> its SourceFile, parsed and bound once

function compile(args) {
  const commandLine = ts.parseCommandLine(args);
  const system = ts.sys;
  const formatHost = {
    getCurrentDirectory: () => system.getCurrentDirectory(),
    getNewLine: () => system.newLine,
    getCanonicalFileName: (f) => (system.useCaseSensitiveFileNames ? f : f.toLowerCase()),
  };
  const refused = REFUSED.filter((name) => commandLine.options[name] !== undefined);
  if (refused.length || commandLine.fileNames.length === 0 || commandLine.projectReferences) {
    const why = refused.length ? `options ${refused.join(", ")}` : "no file named";
    return { status: 99, stdout: `tsc_server.mjs: not run as tsc would run it (${why})\n` };
  }
  if (commandLine.errors.length) {
    return { status: 1, stdout: ts.formatDiagnostics(commandLine.errors, formatHost) };
  }
  const options = commandLine.options;
  const host = ts.createCompilerHost(options);
  host.jsDocParsingMode = ts.JSDocParsingMode.ParseForTypeErrors; // as tsc's performCompilation
  const libFolder = path.dirname(ts.getDefaultLibFilePath(options)) + path.sep;
  const key = JSON.stringify(options);
  if (!libraries.has(key)) libraries.set(key, new Map());
  const kept = libraries.get(key);
  const read = host.getSourceFile;
  host.getSourceFile = (fileName, how, onError, shouldCreate) => {
    if (!path.resolve(fileName).startsWith(libFolder)) return read(fileName, how, onError, shouldCreate);
    const which = `${fileName}|${how.languageVersion}|${how.impliedNodeFormat}|${how.jsDocParsingMode}`;
    if (!kept.has(which)) kept.set(which, read(fileName, how, onError, shouldCreate));
    return kept.get(which);
  };
  const program = ts.createProgram({ rootNames: commandLine.fileNames, options, host });
  // emitFilesAndReportErrors, as tsc runs it
  const all = [...program.getConfigFileParsingDiagnostics()];
  const configLength = all.length;
  all.push(...program.getSyntacticDiagnostics());
  if (all.length === configLength) {
    all.push(...program.getOptionsDiagnostics());
    all.push(...program.getGlobalDiagnostics());
    if (all.length === configLength) all.push(...program.getSemanticDiagnostics());
    if (options.noEmit && (options.declaration || options.composite) && all.length === configLength) {
      all.push(...program.getDeclarationDiagnostics());
    }
  }
  const emitted = program.emit();
  all.push(...emitted.diagnostics);
  const diagnostics = ts.sortAndDeduplicateDiagnostics(all);
  const stdout = diagnostics.map((d) => ts.formatDiagnostic(d, formatHost)).join("");
  const status = diagnostics.length === 0 ? 0 : emitted.emitSkipped ? 1 : 2;
  return { status, stdout };
}

const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
for await (const line of lines) {
  let reply;
  try {
    const request = JSON.parse(line);
    process.chdir(request.cwd);
    reply = compile(request.args);
  } catch (error) {
    reply = { status: 98, stdout: `tsc_server.mjs: ${error.stack}\n` };
  }
  process.stdout.write(JSON.stringify(reply) + "\n");
}
