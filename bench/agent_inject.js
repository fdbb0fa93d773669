// Injected by bench/bench_agent.py into every MiniWoB++ task page it serves (never into phonewire): the same
// seed per episode for both agents, and the episode's reward posted to the harness (same origin, loopback) when
// the page's own core ends the episode, so success is judged outside the agent, without a call it would pay for.
(function () {
  var params = new URLSearchParams(location.search);
  var client = params.get("wob_client") || "agent";
  var seed = params.get("wob_seed") || "0";
  var task = location.pathname.split("/").pop().replace(/\.html$/, "");
  if (Math.seedrandom) Math.seedrandom(seed + ":load");
  var startReal = core.startEpisodeReal;
  core.startEpisodeReal = function () {
    Math.seedrandom(seed + ":" + WOB_EPISODE_ID);
    return startReal.apply(this, arguments);
  };
  var endEpisode = core.endEpisode;
  core.endEpisode = function (reward) {
    var body = JSON.stringify({ client: client, task: task, reward: reward, episode: WOB_EPISODE_ID });
    fetch("/__agent/reward", { method: "POST", body: body, keepalive: true });
    return endEpisode.apply(this, arguments);
  };
})();
