-- The harness's random-slug.lua (named by RANDOM_SLUG_LUA), seeded per thread: with the seed
-- alone every wrk thread asks for the same slugs in the same order, so half the reads repeat
-- another thread's just before, and a window read with the warm-up's seed replays the warm-up.
--   RANDOM_SLUG_LUA=…/random-slug.lua wrk -t2 … -s random-slug-per-thread.lua URL -- <slugs> json <seed>
dofile(os.getenv("RANDOM_SLUG_LUA"))
local harnessInit = init
local threads = 0

function setup(thread)
  threads = threads + 1
  thread:set("thread_index", threads)
end

function init(args)
  local seed = (tonumber(args[3] or "") or 1) * 1000 + (thread_index or 0)
  harnessInit({ args[1], args[2], tostring(seed) })
end
