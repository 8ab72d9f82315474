// The Skyport reference's per-player-turn cost on the six vectors' turns,
// in-process: rewind's own harness around the reference's classes
// (pilsprog/skyport-logic at cf40a95), which scripts/skyport-bench.sh
// compiles against a checkout given to it. The reference itself is never
// in this tree.
import java.io.*;
import java.net.*;
import java.util.*;
import java.lang.reflect.*;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.json.*;

public class Bench {
    static class FakeSocket extends Socket {
        public InputStream getInputStream() { return new ByteArrayInputStream(new byte[0]); }
        public OutputStream getOutputStream() { return OutputStream.nullOutputStream(); }
    }
    static class Vec {
        String mapPath; String[] names; int[][] spawns; int[] ring;
        List<String[]> loadouts = new ArrayList<>();
        List<String[]> turns = new ArrayList<>();
    }
    static class Game {
        AIConnection[] conns; int[] ring; int cur; GameThread gt;
    }
    static Method pta, pen;
    static boolean send;

    static Vec load(String dir, String name) throws Exception {
        JSONObject in = new JSONObject(new JSONTokener(new FileReader(dir + "/" + name + ".input.json")));
        Vec v = new Vec();
        v.mapPath = dir + "/" + in.getJSONObject("map").getString("path");
        JSONArray ps = in.getJSONArray("players");
        v.names = new String[ps.length()];
        for (int i = 0; i < ps.length(); i++) v.names[i] = ps.getJSONObject(i).getString("name");
        JSONArray sp = in.getJSONArray("spawns");
        v.spawns = new int[sp.length()][2];
        for (int i = 0; i < sp.length(); i++) {
            String[] t = sp.getString(i).split(", ");
            v.spawns[i][0] = Integer.parseInt(t[0]); v.spawns[i][1] = Integer.parseInt(t[1]);
        }
        JSONArray r = in.getJSONArray("ring");
        v.ring = new int[r.length()];
        for (int i = 0; i < r.length(); i++) v.ring[i] = r.getInt(i);
        JSONArray lo = in.getJSONArray("loadout_lines");
        for (int i = 0; i < lo.length(); i++) v.loadouts.add(new String[]{"" + lo.getJSONArray(i).getInt(0), lo.getJSONArray(i).getString(1)});
        JSONArray ts = in.getJSONArray("turns");
        for (int i = 0; i < ts.length(); i++) {
            JSONArray ls = ts.getJSONObject(i).getJSONArray("lines");
            String[] a = new String[ls.length()];
            for (int k = 0; k < a.length; k++) a[k] = ls.getString(k);
            v.turns.add(a);
        }
        return v;
    }

    static void feed(AIConnection c, String line) {
        try {
            JSONObject o = new JSONObject(line);
            c.input(o);
        } catch (JSONException e) {
            try { c.sendMessage(new JSONObject().put("error", "Invalid packet received: " + e.getMessage())); } catch (Exception f) {}
        } catch (ProtocolException e) {
            try { c.sendMessage(new JSONObject().put("error", e.getMessage())); } catch (Exception f) {}
        } catch (IOException e) {}
    }

    static Game start(Vec v) throws Exception {
        World w = new WorldParser(v.mapPath).parseFile();
        GraphicsContainer gc = new GraphicsContainer();
        gc.set(new GraphicsConnection(new FakeSocket(), gc));
        ConcurrentLinkedQueue<AIConnection> q = new ConcurrentLinkedQueue<>();
        Game g = new Game();
        g.conns = new AIConnection[v.names.length];
        Field hs = AIConnection.class.getDeclaredField("gotHandshake");
        hs.setAccessible(true);
        for (int p = 0; p < v.names.length; p++) {
            AIConnection c = new AIConnection(new FakeSocket());
            c.username = v.names[p];
            hs.setBoolean(c, true);
            c.isAlive = send;
            Tile t = w.topTile;
            for (int j = 0; j < v.spawns[p][0]; j++) t = t.leftDown;
            for (int k = 0; k < v.spawns[p][1]; k++) t = t.rightDown;
            c.setSpawnpoint(t);
            g.conns[p] = c;
            q.add(c);
        }
        for (String[] l : v.loadouts) feed(g.conns[Integer.parseInt(l[0])], l[1]);
        g.gt = new GameThread(q, v.names.length, 0, 0, w, gc);
        g.ring = v.ring;
        g.cur = v.ring.length - 1;
        advance(g); // turn 0
        return g;
    }

    // PlayerSelector.getListInTurnOrderAndMoveToNextTurn's walk.
    static AIConnection advance(Game g) {
        while (true) {
            g.cur = (g.cur + 1) % g.ring.length;
            AIConnection c = g.conns[g.ring[g.cur]];
            if (c.hasToPass) { c.hasToPass = false; continue; }
            if (c.needsRespawn) c.respawn();
            return c;
        }
    }

    static long runTurns(Vec v, Game g) throws Exception {
        long t0 = System.nanoTime();
        for (String[] lines : v.turns) {
            AIConnection a = advance(g);
            a.clearAllMessages();
            for (String l : lines) feed(a, l);
            pta.invoke(g.gt, a);
            pen.invoke(g.gt, a);
        }
        return System.nanoTime() - t0;
    }

    public static void main(String[] args) throws Exception {
        String dir = args[0];
        Debug.developerMode = Boolean.parseBoolean(args[1]);
        send = Boolean.parseBoolean(args[2]);
        int passes = Integer.parseInt(args[3]);
        PrintStream out = System.out;
        System.setOut(new PrintStream(OutputStream.nullOutputStream()));
        pta = GameThread.class.getDeclaredMethod("processThreePlayerActions", AIConnection.class);
        pta.setAccessible(true);
        pen = GameThread.class.getDeclaredMethod("givePenalityForLingeringOnSpawntile", AIConnection.class);
        pen.setAccessible(true);
        List<Vec> vs = new ArrayList<>();
        int turns = 0;
        for (String n : new String[]{"s01", "s02", "s03", "s04", "s05", "s06"}) { Vec v = load(dir, n); vs.add(v); turns += v.turns.size(); }
        // sanity: final scores of s01
        Game chk = start(vs.get(0)); runTurns(vs.get(0), chk);
        String scores = "";
        for (AIConnection c : chk.conns) scores += c.score + " ";
        for (int w = 0; w < passes / 4 + 3; w++) for (Vec v : vs) runTurns(v, start(v));
        long ns = 0;
        for (int p = 0; p < passes; p++) for (Vec v : vs) { Game g = start(v); ns += runTurns(v, g); }
        out.printf("java reference: developerMode=%s send=%s: %.0f ns per player-turn over %d turns x %d passes (s01 final scores %s)%n",
                   Debug.developerMode, send, (double) ns / ((long) turns * passes), turns, passes, scores.trim());
    }
}
