"""The durable LangGraph peer of `npm run bench:turn`.

The same turn as Scriptorium's, built the way a LangGraph application would build it:
a StateGraph router -> agent step <-> tools -> decide -> ... -> finalize, checkpointed to
SQLite after every node (AsyncSqliteSaver, durability="sync"), the session's history kept in
the thread's state, files in MongoDB through pymongo (same MongoDB-wire server), tokens to a
Redis Stream. It sends the same eight model calls to the same scripted offline model: the
phase marks the script matches on (agent header, a `create_file` result with `next_step`,
the continuation marker) are the ones our engine's prompts carry.

Driven over stdin/stdout by bench/turn-kit/peer.ts, one JSON object per line:
  {"cmd": "turn", "id", "turnId", "projectId", "threadId", "message"}   -> {"id", "ok"}
  {"cmd": "seed", "id", "projectId", "threadId", "chapters", "turns"}   -> {"id", "ok"}
  {"cmd": "reset", "id"}                                                -> {"id", "ok"}
  {"cmd": "stats", "id"}        -> {"id", "cpuMs", "mongo"}   (own CPU, MongoDB commands)
"""

from __future__ import annotations

import asyncio
import json
import operator
import os
import sys
import time
from datetime import datetime, timezone
from typing import Annotated, Any, Optional, TypedDict

from bson import ObjectId
from langgraph.checkpoint.sqlite.aio import AsyncSqliteSaver
from langgraph.graph import END, START, StateGraph
from openai import AsyncOpenAI
from pymongo import AsyncMongoClient, monitoring
import redis.asyncio as aioredis

CONTINUATION = "[file-stream continuation]"
REVIEW_EVIDENCE = "[review evidence]"
REVIEW_WORD_THRESHOLD = 800
HISTORY_CHARS = 32000 * 4  # our history budget of 32k tokens, at ~4 characters a token
CONTEXT_CHARS = 32000 * 4


class CommandCounter(monitoring.CommandListener):
    count = 0

    def started(self, event: monitoring.CommandStartedEvent) -> None:
        if event.command_name not in ("hello", "ismaster", "isMaster", "endSessions"):
            CommandCounter.count += 1

    def succeeded(self, event: monitoring.CommandSucceededEvent) -> None:
        pass

    def failed(self, event: monitoring.CommandFailedEvent) -> None:
        pass


class Turn(TypedDict, total=False):
    history: Annotated[list, operator.add]  # the session: grows by each turn's messages
    turn_id: str
    project_id: str
    message: str
    queue: list  # agents still planned
    run: Optional[dict]  # {agent, kind, msgs, pending_file, ends_on_file, text}
    runs: list  # finished runs: {agent, text}
    words: int
    reviewed: bool
    step: int


def now() -> str:
    return datetime.now(timezone.utc).isoformat()


class Batcher:
    """Token events without a Redis round trip per token: while one pipelined XADD batch is
    in flight, new deltas queue up and adjacent deltas of one kind merge (as ours do)."""

    def __init__(self, redis: Any, key: str, turn_id: str) -> None:
        self.redis, self.key, self.turn_id = redis, key, turn_id
        self.queue: list = []
        self.task: Optional[asyncio.Task] = None

    def add(self, etype: str, data: dict, agent: Optional[str]) -> None:
        last = self.queue[-1] if self.queue else None
        if last and etype in ("content", "file_content") and last["type"] == etype:
            last["data"]["delta"] += data["delta"]
        else:
            self.queue.append({"type": etype, "turnId": self.turn_id, "agent": agent, "ts": now(), "data": dict(data)})
        if self.task is None:
            self.task = asyncio.create_task(self.drain())

    async def drain(self) -> None:
        try:
            while self.queue:
                batch, self.queue = self.queue, []
                pipe = self.redis.pipeline(transaction=False)
                for e in batch:
                    pipe.xadd(self.key, {"e": json.dumps(e)})
                await pipe.execute()
        finally:
            self.task = None

    async def flush(self) -> None:
        while self.task is not None:
            await self.task


class Peer:
    def __init__(self, cfg: dict) -> None:
        self.cfg = cfg
        self.prompts: dict = json.load(open(cfg["prompts"]))
        self.llm = AsyncOpenAI(base_url=cfg["modelUrl"], api_key="offline", max_retries=0)
        self.mongo = AsyncMongoClient(cfg["mongoUri"], event_listeners=[CommandCounter()])
        self.db = self.mongo[cfg["db"]]
        self.redis = aioredis.from_url(cfg["redisUrl"])
        self.prefix = cfg["prefix"]
        self.graph = None
        self.saver_cm = None

    async def open(self) -> None:
        self.saver_cm = AsyncSqliteSaver.from_conn_string(self.cfg["sqlite"])
        saver = await self.saver_cm.__aenter__()
        await saver.setup()
        self.graph = self.build().compile(checkpointer=saver)

    async def close_saver(self) -> None:
        if self.saver_cm:
            await self.saver_cm.__aexit__(None, None, None)
            self.saver_cm = None

    # ---- events -------------------------------------------------------------------------
    async def publish(self, turn_id: str, etype: str, data: dict, agent: str | None = None) -> None:
        event = {"type": etype, "turnId": turn_id, "agent": agent, "ts": now(), "data": data}
        await self.redis.xadd(f"{self.prefix}stream:{turn_id}", {"e": json.dumps(event)})

    def batcher(self, turn_id: str) -> "Batcher":
        return Batcher(self.redis, f"{self.prefix}stream:{turn_id}", turn_id)

    # ---- nodes --------------------------------------------------------------------------
    async def router(self, s: Turn) -> dict:
        last = next((m for m in reversed(s.get("history", [])) if m["role"] == "assistant"), None)
        user = s["message"] + (f"\n\n[previous assistant message]\n{last['content'][-600:]}" if last else "")
        res = await self.llm.chat.completions.create(
            model="scriptorium-offline",
            messages=[{"role": "system", "content": self.prompts["router"]}, {"role": "user", "content": user}],
            stream=True,
            stream_options={"include_usage": True},
        )
        text = ""
        async for chunk in res:
            if chunk.choices and chunk.choices[0].delta.content:
                text += chunk.choices[0].delta.content
        try:
            route = json.loads(text)
            agents = [a for a in route.get("workflow_agents", []) if a in ("planner", "hook_designer", "writer")]
        except ValueError:
            agents = ["writer"]
        return {"queue": agents or ["writer"], "run": None, "runs": [], "words": 0, "reviewed": False, "step": 0}

    async def project_context(self, project_id: str) -> str:
        files = [f async for f in self.db.files.find({"projectId": project_id, "deletedAt": None}, {"content": 0}).sort([("type", 1), ("order", 1)])]
        manifest = "\n".join(f"- {f['title']} (id={f['_id']}, {f['type']}, {f.get('words', 0)} words)" for f in files)
        drafts = [f for f in files if f["type"] == "draft"]
        wanted = [f["_id"] for f in files if f["type"] == "outline"] + [f["_id"] for f in drafts[-3:]]
        bodies = {b["_id"]: b for b in [b async for b in self.db.files.find({"_id": {"$in": wanted}}, {"content": 1, "title": 1})]}
        parts, used = ["## Project files", manifest or "(no files yet)"], 0
        for fid in wanted:
            b = bodies.get(fid)
            if not b or used + len(b["content"]) > CONTEXT_CHARS:
                continue
            used += len(b["content"])
            parts.append(f"### {b['title']} (id={fid}) [full]\n{b['content']}")
        return "\n\n".join(parts)

    def history_messages(self, history: list) -> list:
        out, used = [], 0
        for m in reversed(history):
            used += len(m["content"])
            if used > HISTORY_CHARS:
                break
            out.append({"role": m["role"], "content": m["content"]})
        return list(reversed(out))

    async def agent(self, s: Turn) -> dict:
        run = dict(s["run"])
        agent, turn_id = run["agent"], s["turn_id"]
        step = s["step"] + 1
        context = await self.project_context(s["project_id"])
        messages = [
            {"role": "system", "content": self.prompts[agent]},
            {"role": "system", "content": context},
            *self.history_messages(s.get("history", [])),
            {"role": "user", "content": s["message"]},
            *({"role": "assistant", "content": f"[{r['agent']}] {r['text']}"} for r in s["runs"] if r["text"]),
        ]
        if run["kind"] == "continuation":
            messages.append({"role": "user", "content": f"{CONTINUATION}\nThe file is saved. Sum up in one or two sentences; do not repeat it."})
        if run["kind"] == "review":
            messages.append({"role": "user", "content": f"{REVIEW_EVIDENCE}\nWords written this turn: {s['words']}"})
        messages.extend(run["msgs"])
        if not run["msgs"]:
            await self.publish(turn_id, "agent_selected", {"agent": agent}, agent)
        tools = self.prompts["tools"].get(agent) or None
        stream = await self.llm.chat.completions.create(
            model="scriptorium-offline", messages=messages, tools=tools, stream=True, stream_options={"include_usage": True}
        )
        raw, chat, body, inside, sent = "", "", "", False, 0
        out_events = self.batcher(turn_id)
        calls: dict[int, dict] = {}
        usage = None

        async def flush(final: bool) -> None:
            # Splits the raw text into chat and <file> body, holding back a partial marker.
            nonlocal sent, inside, chat, body
            end = len(raw) if final else max(sent, len(raw) - 8)
            while sent < end:
                marker = "</file>" if inside else "<file>"
                at = raw.find(marker, sent)
                stop = at if 0 <= at < end else end
                piece = raw[sent:stop]
                if piece:
                    if inside:
                        body += piece
                        out_events.add("file_content", {"fileId": run["pending_file"], "delta": piece}, agent)
                    else:
                        chat += piece
                        out_events.add("content", {"delta": piece}, agent)
                sent = stop
                if 0 <= at < end:
                    sent = at + len(marker)
                    inside = not inside

        async for chunk in stream:
            if chunk.usage:
                usage = chunk.usage
            if not chunk.choices:
                continue
            d = chunk.choices[0].delta
            if d.content:
                raw += d.content
                await flush(False)
                # Let the batcher's XADD run while the next chunk is read.
                await asyncio.sleep(0)
            for tc in d.tool_calls or []:
                slot = calls.setdefault(tc.index, {"id": "", "name": "", "arguments": ""})
                if tc.id:
                    slot["id"] = tc.id
                if tc.function and tc.function.name:
                    slot["name"] += tc.function.name
                if tc.function and tc.function.arguments:
                    slot["arguments"] += tc.function.arguments
        await flush(True)
        await out_events.flush()
        out: dict = {"step": step}
        words = s["words"]
        if run.get("pending_file") and body.strip():
            # The captured body becomes a new version of the pending file, in this same node.
            text = body.strip("\n")
            n = len(text.split())
            fid = run["pending_file"]
            await self.db.file_versions.insert_one({"fileId": fid, "version": 1, "content": text, "words": n, "turnId": turn_id, "createdAt": datetime.now(timezone.utc)})
            await self.db.files.update_one({"_id": fid}, {"$set": {"content": text, "words": n, "versionCount": 1}})
            await self.publish(turn_id, "file_updated", {"fileId": fid, "words": n}, agent)
            run["pending_file"] = None
            run["ends_on_file"] = raw.rstrip().endswith("</file>")
            if agent == "writer":
                words += n
        if usage:
            await self.publish(turn_id, "usage", {"promptTokens": usage.prompt_tokens, "completionTokens": usage.completion_tokens}, agent)
        tool_calls = [c for _, c in sorted(calls.items()) if c["name"]]
        run["msgs"] = run["msgs"] + [
            {"role": "assistant", "content": raw or None, **({"tool_calls": [{"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}} for c in tool_calls]} if tool_calls else {})}
        ]
        run["pending_calls"] = tool_calls
        run["text"] = run.get("text", "") + chat
        out.update({"run": run, "words": words})
        return out

    async def tools(self, s: Turn) -> dict:
        run = dict(s["run"])
        msgs = list(run["msgs"])
        for c in run["pending_calls"]:
            await self.publish(s["turn_id"], "tool_call", {"name": c["name"], "toolCallId": c["id"]}, run["agent"])
            try:
                args = json.loads(c["arguments"] or "{}")
            except ValueError:
                args = None
            if c["name"] == "create_file" and isinstance(args, dict):
                fid = str(ObjectId())
                order = await self.db.files.count_documents({"projectId": s["project_id"], "parentId": None})
                await self.db.files.insert_one(
                    {"_id": fid, "projectId": s["project_id"], "type": args.get("type", "draft"), "title": args.get("title", ""), "parentId": None, "order": order, "content": "", "words": 0, "versionCount": 0, "deletedAt": None, "pendingTurnId": s["turn_id"]}
                )
                result = {"ok": True, "id": fid, "title": args.get("title"), "type": args.get("type"), "words": 0, "next_step": "Now write the body as a line <file>, the text, then a line </file>."}
                run["pending_file"] = fid
                await self.publish(s["turn_id"], "file_created", {"fileId": fid, "title": args.get("title")}, run["agent"])
            else:
                result = {"ok": False, "error_type": "tool_not_found", "message": f"no tool {c['name']}"}
            await self.publish(s["turn_id"], "tool_result", {"name": c["name"], "ok": result["ok"]}, run["agent"])
            msgs.append({"role": "tool", "tool_call_id": c["id"], "content": json.dumps(result)})
        run["msgs"], run["pending_calls"] = msgs, []
        return {"run": run}

    async def decide(self, s: Turn) -> dict:
        run, queue, runs, reviewed = s.get("run"), list(s["queue"]), list(s["runs"]), s["reviewed"]
        nxt = None
        if run is not None:
            runs.append({"agent": run["agent"], "text": run.get("text", "")})
            if run["kind"] == "fresh" and run.get("ends_on_file"):
                nxt = {"agent": run["agent"], "kind": "continuation"}
            elif run["agent"] == "writer" and s["words"] >= REVIEW_WORD_THRESHOLD and not reviewed:
                nxt, reviewed = {"agent": "quality_reviewer", "kind": "review"}, True
        if nxt is None and queue:
            nxt = {"agent": queue.pop(0), "kind": "fresh"}
        if nxt is not None:
            nxt.update({"msgs": [], "pending_file": None, "ends_on_file": False, "text": "", "pending_calls": []})
        return {"run": nxt, "queue": queue, "runs": runs, "reviewed": reviewed}

    async def finalize(self, s: Turn) -> dict:
        reply = "\n\n".join(r["text"].strip() for r in s["runs"] if r["text"].strip())
        await self.db.files.update_many({"pendingTurnId": s["turn_id"]}, {"$set": {"pendingTurnId": None}})
        await self.publish(s["turn_id"], "done", {"status": "completed"})
        await self.redis.expire(f"{self.prefix}stream:{s['turn_id']}", 3600)
        return {"history": [{"role": "user", "content": s["message"]}, {"role": "assistant", "content": reply}], "run": None}

    def build(self) -> StateGraph:
        g = StateGraph(Turn)
        g.add_node("router", self.router)
        g.add_node("decide", self.decide)
        g.add_node("agent", self.agent)
        g.add_node("tools", self.tools)
        g.add_node("finalize", self.finalize)
        g.add_edge(START, "router")
        g.add_edge("router", "decide")
        g.add_conditional_edges("decide", lambda s: "agent" if s.get("run") else "finalize", ["agent", "finalize"])
        g.add_conditional_edges("agent", lambda s: "tools" if s["run"].get("pending_calls") else "decide", ["tools", "decide"])
        g.add_edge("tools", "agent")
        g.add_edge("finalize", END)
        return g

    # ---- commands -----------------------------------------------------------------------
    async def turn(self, m: dict) -> None:
        config = {"configurable": {"thread_id": m["threadId"]}}
        await self.graph.ainvoke(
            {"turn_id": m["turnId"], "project_id": m["projectId"], "message": m["message"], "queue": [], "run": None, "runs": [], "words": 0, "reviewed": False, "step": 0},
            config,
            durability="sync",
        )

    async def seed(self, m: dict) -> None:
        """A project with `chapters` chapters and a thread with `turns` turns of history."""
        pid = m["projectId"]
        chapter = " ".join(["The fog lay over the harbour while the inspector read the letter again."] * 80)
        docs = [{"_id": str(ObjectId()), "projectId": pid, "type": "outline", "title": "Outline", "parentId": None, "order": 0, "content": chapter[:4000], "words": 600, "versionCount": 1, "deletedAt": None}]
        docs += [
            {"_id": str(ObjectId()), "projectId": pid, "type": "draft", "title": f"Chapter {i}", "parentId": None, "order": i, "content": chapter, "words": len(chapter.split()), "versionCount": 1, "deletedAt": None}
            for i in range(1, m["chapters"] + 1)
        ]
        await self.db.files.insert_many(docs)
        await self.db.file_versions.insert_many([{"fileId": d["_id"], "version": 1, "content": d["content"], "words": d["words"]} for d in docs])
        history = []
        for i in range(m["turns"]):
            history.append({"role": "user", "content": f"Revise chapter {i % m['chapters'] + 1}: tighten the dialogue."})
            history.append({"role": "assistant", "content": f"Chapter {i % m['chapters'] + 1} is revised: the dialogue is tighter and the clue about the letter lands earlier. " * 3})
        config = {"configurable": {"thread_id": m["threadId"]}}
        await self.graph.aupdate_state(config, {"history": history, "run": None}, as_node="finalize")

    async def reset(self) -> None:
        await self.close_saver()
        for suffix in ("", "-wal", "-shm"):
            try:
                os.remove(self.cfg["sqlite"] + suffix)
            except FileNotFoundError:
                pass
        await self.db.files.delete_many({})
        await self.db.file_versions.delete_many({})
        await self.open()


async def main() -> None:
    peer = Peer(json.loads(sys.argv[1]))
    await peer.open()
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader()
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    tasks: set = set()

    def answer(obj: dict) -> None:
        sys.stdout.write(json.dumps(obj) + "\n")
        sys.stdout.flush()

    async def handle(m: dict) -> None:
        try:
            if m["cmd"] == "turn":
                await peer.turn(m)
            elif m["cmd"] == "seed":
                await peer.seed(m)
            elif m["cmd"] == "reset":
                await peer.reset()
            elif m["cmd"] == "stats":
                answer({"id": m["id"], "ok": True, "cpuMs": time.process_time() * 1000, "mongo": CommandCounter.count})
                return
            answer({"id": m["id"], "ok": True})
        except Exception as err:  # reported to the bench, which fails loudly
            answer({"id": m["id"], "ok": False, "error": f"{type(err).__name__}: {err}"})

    answer({"ready": True})
    while True:
        line = await reader.readline()
        if not line:
            break
        t = asyncio.create_task(handle(json.loads(line)))
        tasks.add(t)
        t.add_done_callback(tasks.discard)
    await asyncio.gather(*tasks)
    await peer.close_saver()


if __name__ == "__main__":
    asyncio.run(main())
