-- SPDX-License-Identifier: GPL-2.0-only
-- wrk's summary as one line tools/bench/http_run reads: duration (us),
-- completed responses, bytes read (those of responses cut at the end
-- too), then the errors: connect, read, write, HTTP status, timeout.
done = function(summary, latency, requests)
	local e = summary.errors
	io.write(string.format("result %d %d %d %d %d %d %d %d\n",
		summary.duration, summary.requests, summary.bytes,
		e.connect, e.read, e.write, e.status, e.timeout))
end
