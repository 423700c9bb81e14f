// Package webreplay makes browser runs deterministic and offline while
// tasks keep their real URLs. It owns the fixture archive format, an HTTPS
// server that answers for real host names on loopback, and the two handlers
// over one archive type: Replay, which serves only what the archive holds,
// and Record, which fetches from the live site and adds to the archive.
//
// It imports the standard library, the YAML library and internal/problem
// (the decoding kit and located problems of Open); it must not import other
// packages of this module. Launching the browser, choosing a
// mode and writing files at the end of a run belong to the caller.
//
// # Archive format, version 1
//
// An archive is a folder:
//
//	web/
//	  archive.yaml      format_version: 1 (required), description: free text
//	  README.md         notes for people; ignored by Open, kept by Write
//	  <host>/           one folder per host name, lower case, no port
//	    index.yaml      the entries of the host
//	    <body files>    any layout below the host folder
//
// index.yaml lists entries:
//
//	entries:
//	  - path: /wiki/Eiffel_Tower     # required; starts with "/", no query, no fragment
//	    query: ""                     # "" no query (default) | canonical "a=1&b=2" | "*" any query
//	    method: GET                   # default GET; HEAD is answered from GET
//	    status: 200                   # default 200
//	    headers:                      # lower-case names, one value each
//	      content-type: text/html; charset=utf-8   # inferred from the body file's extension if absent
//	    body: wiki/Eiffel_Tower.html  # relative to the host folder; optional
//
// A request is looked up by method, host, decoded path and canonical query
// (see CanonicalQuery); an entry with query "*" answers when no entry has
// the exact query. Entries of a host are unique on (method, path, query).
// Open rejects anything else it does not understand, naming the file, the
// line and the path inside it, and reports every problem at once.
// Write produces the same format deterministically (sorted hosts and
// entries, body files named after their paths), so recordings diff well in
// review.
//
// # Why SNI, one key pair and an SPKI pin
//
// The browser must load https://en.wikipedia.org/... from this server with
// the URL unchanged, because contracts match on URLs and pages carry
// absolute links. Chromium's --host-resolver-rules points the archive's
// host names at the loopback port and makes every other name fail to
// resolve, so nothing reaches the network. The server then needs a
// certificate for whatever name the browser asks for in the TLS SNI
// extension; an in-process CA mints one per name on demand.
//
// Every such certificate carries the same leaf public key, so one
// --ignore-certificate-errors-spki-list entry (the key's SHA-256 SPKI hash)
// makes Chromium accept all of them, including hosts first met while
// recording. No CA is installed anywhere and no file is written: the keys
// live as long as the Server.
//
// The blanket --ignore-certificate-errors is never used: it would make the
// browser accept any certificate from anyone, so a run that leaked past the
// resolver rules would talk to an impostor without a sign. The pin accepts
// exactly this server's key and nothing else. Servers that share an
// Authority share its key, so one pin covers a browser that many servers
// serve in turn (the runner's browser per worker).
//
// # The server as a proxy
//
// A browser that was not launched by us cannot be given resolver rules or
// a pin. It can be given a proxy per browser context
// (Target.createBrowserContext's proxyServer): the server's port, which
// answers CONNECT for the archive's hosts by tunnelling to itself, and
// refuses every other host, loopback included (ProxyBypass), so the
// context reaches nothing else. Such a browser must then accept the
// server's certificates by other means (the runner uses CDP's
// Security.setIgnoreCertificateErrors, safe only because the context's
// every connection goes to the server).
package webreplay
