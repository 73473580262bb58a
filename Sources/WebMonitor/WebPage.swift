/// The web monitor's page: one file, no network beyond this server (no tiles, no libraries).
/// A canvas map of the city's streets with drivers coloured by state (moving along their legs'
/// routes between frames, on the simulated clock), waiting requests, pickups
/// and drop-offs as they happen and surge zones shaded (drag to pan, wheel to zoom); charts over
/// simulated time; the processes' health; the live RIB tree of a rider's or driver's app (click a
/// driver, or type an id); the summary and verdict at the end.
enum WebPage {
    static let html = #"""
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>ribcity</title>
        <style>
        body{margin:0;font:13px system-ui,sans-serif;background:#10141a;color:#dde3ea}
        header{display:flex;gap:18px;align-items:baseline;padding:8px 14px;background:#171d26}
        header h1{font-size:16px;margin:0}
        #kpis{display:flex;gap:14px;flex-wrap:wrap}
        .kpi b{font-size:15px;color:#fff}
        main{display:grid;grid-template-columns:minmax(400px,3fr) minmax(360px,2fr);gap:8px;padding:8px;height:calc(100vh - 52px);box-sizing:border-box}
        #mapbox{position:relative;background:#0b0e13;border:1px solid #263040}
        #map{width:100%;height:100%;display:block;cursor:grab}
        #legend{position:absolute;left:8px;bottom:8px;background:#171d26cc;padding:6px 8px;border-radius:4px}
        .dot{display:inline-block;width:9px;height:9px;border-radius:2px;margin:0 4px 0 10px}
        #side{display:flex;flex-direction:column;gap:8px;overflow:auto}
        .panel{background:#171d26;border:1px solid #263040;padding:8px}
        .panel h2{font-size:13px;margin:0 0 6px;color:#9fb0c4}
        canvas.chart{width:100%;height:120px;display:block}
        table{border-collapse:collapse;width:100%}td,th{padding:2px 6px;text-align:right}td:first-child,th:first-child{text-align:left}
        #tree{white-space:pre;font:12px ui-monospace,monospace;max-height:260px;overflow:auto}
        .pass{color:#6fdc8c}.fail{color:#ff6b6b}
        input{background:#0b0e13;color:#dde3ea;border:1px solid #263040;padding:3px 6px}
        </style></head><body>
        <header><h1 id="title">ribcity</h1><span id="clock">waiting for the run…</span><span id="status"></span>
        <div id="kpis">
        <span class="kpi">requests <b id="requests">0</b></span><span class="kpi">matched <b id="matched">0</b></span>
        <span class="kpi">completed <b id="completed">0</b></span><span class="kpi">cancelled <b id="cancelled">0</b></span>
        <span class="kpi">rejected <b id="rejected">0</b></span><span class="kpi">open <b id="open">0</b></span>
        <span class="kpi">pickup p50/p95 <b id="waits">–</b></span><span class="kpi">busy <b id="utilisation">–</b></span>
        <span class="kpi">surge max <b id="surge">1.0</b></span></div></header>
        <main><div id="mapbox"><canvas id="map"></canvas><div id="legend">
        <span class="dot" style="background:#4da3ff"></span>idle<span class="dot" style="background:#ffd24d"></span>offered
        <span class="dot" style="background:#ff9f43"></span>en route<span class="dot" style="background:#6fdc8c"></span>on trip
        <span class="dot" style="background:#ff4d6d;border-radius:9px"></span>waiting request</div></div>
        <div id="side">
        <div class="panel"><h2>Per simulated minute: requests, matched, completed, cancelled</h2><canvas class="chart" id="c-flow"></canvas></div>
        <div class="panel"><h2>Pickup wait p50 / p95 (s)</h2><canvas class="chart" id="c-waits"></canvas></div>
        <div class="panel"><h2>Drivers busy (share of online) and surge</h2><canvas class="chart" id="c-busy"></canvas></div>
        <div class="panel"><h2>Processes</h2><table id="processes"></table></div>
        <div class="panel"><h2>An app's RIB tree</h2><input id="app" placeholder="rider or driver id, or click a driver on the map"> <div id="picked"></div><div id="tree"></div></div>
        <div class="panel"><h2>Events</h2><div id="notices"></div></div>
        <div class="panel" id="final" hidden><h2>Run summary</h2><div id="verdict"></div></div>
        </div></main>
        <script>
        "use strict";
        const colours={1:"#55606e",2:"#4da3ff",3:"#ffd24d",4:"#ff9f43",5:"#6fdc8c"};
        const city={map:null,drivers:new Map(),legs:new Map(),waiting:new Map(),flashes:[],surge:{},minutes:new Map(),notices:[],frames:0,summary:null,kpis:null};
        window.ribcity=city;
        const view={scale:1,x:0,y:0};
        const canvas=document.getElementById("map"),ctx=canvas.getContext("2d");
        let streets=null;
        function project(lat,lon){const b=city.map.bounds,k=Math.cos((b[0]+b[2])/2*Math.PI/180);
         const w=(b[3]-b[1])*k,h=b[2]-b[0],s=Math.min(canvas.width/w,canvas.height/h)*0.95*view.scale;
         return[(lon-b[1])*k*s+(canvas.width-w*s)/2+view.x,(b[2]-lat)*s+(canvas.height-h*s)/2+view.y];}
        function resize(){canvas.width=canvas.clientWidth;canvas.height=canvas.clientHeight;streets=null;}
        function drawStreets(){streets=document.createElement("canvas");streets.width=canvas.width;streets.height=canvas.height;
         const c=streets.getContext("2d"),n=city.map.nodes,e=city.map.streets;c.strokeStyle="#2f3b4d";c.lineWidth=1;c.beginPath();
         for(let i=0;i<e.length;i+=2){const a=project(n[2*e[i]],n[2*e[i]+1]),b=project(n[2*e[i+1]],n[2*e[i+1]+1]);c.moveTo(a[0],a[1]);c.lineTo(b[0],b[1]);}
         c.stroke();}
        function draw(){if(!city.map)return;if(!streets)drawStreets();ctx.clearRect(0,0,canvas.width,canvas.height);
         for(const z of city.map.zones){const m=city.surge[z.name];if(!m||m<=1)continue;const a=project(z.box[2],z.box[1]),b=project(z.box[0],z.box[3]);
          ctx.fillStyle=`rgba(255,140,0,${Math.min(0.45,(m-1)*0.3)})`;ctx.fillRect(a[0],a[1],b[0]-a[0],b[1]-a[1]);}
         ctx.drawImage(streets,0,0);
         ctx.strokeStyle="#ff4d6d";ctx.lineWidth=1.5;for(const r of city.waiting.values()){const p=project(r.lat,r.lon);ctx.beginPath();ctx.arc(p[0],p[1],3.5,0,7);ctx.stroke();}
         const t=simNow();for(const d of city.drivers.values()){if(d.state==1)continue;const h=here(d,t);if(!h[0])continue;const p=project(h[0],h[1]);ctx.fillStyle=colours[d.state]||"#fff";ctx.fillRect(p[0]-2,p[1]-2,4,4);}
         const now=performance.now();city.flashes=city.flashes.filter(f=>now-f.at<1500);
         for(const f of city.flashes){const p=project(f.lat,f.lon),age=(now-f.at)/1500;ctx.strokeStyle=f.kind=="pickup"?`rgba(111,220,140,${1-age})`:`rgba(200,160,255,${1-age})`;
          ctx.beginPath();ctx.arc(p[0],p[1],4+10*age,0,7);ctx.stroke();}
         if(picked&&city.drivers.has(picked)){const h=here(city.drivers.get(picked),t),p=project(h[0],h[1]);ctx.strokeStyle="#fff";ctx.strokeRect(p[0]-6,p[1]-6,12,12);}}
        function chart(id,series,colours,maxFloor){const c=document.getElementById(id);c.width=c.clientWidth;c.height=c.clientHeight;const g=c.getContext("2d");
         const rows=[...city.minutes.values()].sort((a,b)=>a.minute-b.minute);if(!rows.length)return;
         const max=Math.max(maxFloor||1,...rows.flatMap(r=>series.map(s=>r[s]||0)));const x=i=>rows.length<2?c.width/2:i*(c.width-4)/(rows.length-1)+2;
         for(const n of city.notices.filter(n=>/killed|restarted/.test(n.text))){const i=rows.findIndex(r=>r.minute*60>=n.simSeconds);if(i<0)continue;
          g.strokeStyle="#ff6b6b55";g.beginPath();g.moveTo(x(i),0);g.lineTo(x(i),c.height);g.stroke();}
         series.forEach((s,k)=>{g.strokeStyle=colours[k];g.beginPath();rows.forEach((r,i)=>{const y=c.height-2-(r[s]||0)/max*(c.height-4);i?g.lineTo(x(i),y):g.moveTo(x(i),y);});g.stroke();});
         g.fillStyle="#9fb0c4";g.fillText(max.toFixed(max<10?1:0),2,10);}
        function clock(s){const t=Math.floor((info.startSecondOfDay||0)+s)%86400,h=Math.floor(t/3600),m=Math.floor(t/60)%60,x=t%60;return[h,m,x].map(v=>String(v).padStart(2,"0")).join(":");}
        let info={};
        // Simulated time between frames, from the rate the frames' clock has been moving at.
        const clk={sim:0,wall:0,rate:0,lastSim:0,lastWall:0};
        function simNow(){return clk.sim+clk.rate*Math.min(0.5,(performance.now()-clk.wall)/1000);}
        function tick(sim){const w=performance.now();if(w-clk.lastWall>250){if(clk.lastWall)clk.rate=0.5*clk.rate+0.5*Math.max(0,(sim-clk.lastSim)*1000/(w-clk.lastWall));
          clk.lastSim=sim;clk.lastWall=w;}clk.sim=sim;clk.wall=w;}
        // A leg's nodes as points with the distance along it, so a car moves at an even pace from departure to arrival.
        function route(leg){const n=city.map.nodes,k=Math.cos(n[0]*Math.PI/180),lat=[],lon=[],cum=[0];
         for(const i of leg.nodes){lat.push(n[2*i]);lon.push(n[2*i+1]);const j=lat.length-1;
          if(j)cum.push(cum[j-1]+Math.hypot(lat[j]-lat[j-1],(lon[j]-lon[j-1])*k));}
         return{lat,lon,cum,depart:leg.depart,arrive:leg.arrive,total:cum[cum.length-1]};}
        function here(d,t){const r=city.legs.get(d.id);if(!r||!r.lat.length)return[d.lat,d.lon];if(t<=r.depart||!r.total)return[r.lat[0],r.lon[0]];
         const want=Math.min(1,(t-r.depart)/Math.max(0.001,r.arrive-r.depart))*r.total;let i=1;while(i<r.cum.length-1&&r.cum[i]<want)i++;
         const a=r.cum[i-1],b=r.cum[i],f=b>a?Math.min(1,(want-a)/(b-a)):1;return[r.lat[i-1]+(r.lat[i]-r.lat[i-1])*f,r.lon[i-1]+(r.lon[i]-r.lon[i-1])*f];}
        let dirty=false,chartsAt=0;
        function apply(f){city.frames++;if(f.full){city.drivers.clear();city.legs.clear();city.waiting.clear();city.minutes.clear();city.notices=[];}
         tick(f.simSeconds);if(f.summary)clk.rate=0;
         // Rows as arrays: places in microdegrees, times in milliseconds.
         for(const d of f.drivers)city.drivers.set(d[0],{id:d[0],lat:d[1]/1e6,lon:d[2]/1e6,state:d[3]});
         for(const l of f.legs)city.legs.set(l[0],route({depart:l[1]/1e3,arrive:l[2]/1e3,nodes:l[3]}));for(const id of f.legsEnded)city.legs.delete(id);for(const r of f.waiting)city.waiting.set(r[0],{id:r[0],lat:r[1]/1e6,lon:r[2]/1e6});for(const id of f.waitingEnded)city.waiting.delete(id);
         city.surge=f.surge;city.kpis=f.kpis;city.simSeconds=f.simSeconds;city.processes=f.processes;
         const now=performance.now();for(const x of f.flashes)city.flashes.push({...x,at:now});for(const m of f.minutes)city.minutes.set(m.minute,m);
         city.notices.push(...f.notices);if(city.notices.length>200)city.notices.splice(0,city.notices.length-200);
         dirty=true;if(f.summary&&!city.summary){city.summary=JSON.parse(f.summary);render(true);showSummary(city.summary);}}
        // Frames come as fast as the city changes (up to 100 a second): the text follows at the
        // screen's pace, the charts four times a second.
        function render(charts){if(!city.kpis)return;dirty=false;const k=city.kpis;
         for(const key of["requests","matched","completed","cancelled","rejected","open"])document.getElementById(key).textContent=k[key];
         document.getElementById("waits").textContent=`${k.pickupWaitP50.toFixed(0)} / ${k.pickupWaitP95.toFixed(0)} s`;
         document.getElementById("utilisation").textContent=`${(k.utilisation*100).toFixed(0)} %`;document.getElementById("surge").textContent=k.maxSurge.toFixed(1);
         document.getElementById("clock").textContent=`${clock(city.simSeconds)} (${Math.round(city.simSeconds)} s simulated)`;
         document.getElementById("processes").innerHTML="<tr><th>process</th><th>lives</th><th>lag s</th><th>CPU s</th><th>MB</th><th>in</th><th>out</th></tr>"+
          city.processes.map(p=>`<tr><td>${p.name}</td><td>${p.lives}</td><td>${p.lagSeconds.toFixed(2)}</td><td>${p.cpuSeconds.toFixed(1)}</td><td>${p.residentMB.toFixed(0)}</td><td>${p.messagesIn}</td><td>${p.messagesOut}</td></tr>`).join("");
         document.getElementById("notices").innerHTML=city.notices.slice(-8).map(n=>`<div>${clock(n.simSeconds)} ${n.text.replace(/</g,"&lt;")}</div>`).join("");
         showPicked();
         if(!charts)return;chartsAt=performance.now();
         chart("c-flow",["requests","matched","completed","cancelled"],["#4da3ff","#ffd24d","#6fdc8c","#ff6b6b"]);
         chart("c-waits",["pickupWaitP50","pickupWaitP95"],["#6fdc8c","#ff9f43"]);chart("c-busy",["utilisation","maxSurge"],["#4da3ff","#ff9f43"],1);}
        function showSummary(s){const box=document.getElementById("final");box.hidden=false;const t=s.kpis.totals;
         let html=`<div id="summary-line">${s.outcome}: requests ${s.requests}, completed ${t.completed}, cancelled ${t.cancelled}, rejected ${t.rejected}</div>`;
         if(s.verdict)html+="<table>"+s.verdict.rows.map(r=>`<tr><td class="${r.passed?"pass":"fail"}">${r.passed?"PASS":"FAIL"}</td><td>${r.check}</td><td>${r.detail}</td></tr>`).join("")+"</table>";
         document.getElementById("verdict").innerHTML=html;document.getElementById("status").textContent="run ended";}
        let picked=null;
        const stateNames={1:"offline",2:"idle",3:"offered a ride",4:"on the way to a pickup",5:"on a trip"};
        function showPicked(){const out=document.getElementById("picked");if(!picked)return;const d=city.drivers.get(picked);
         const h=d&&here(d,simNow());out.textContent=d?`${d.id}: ${stateNames[d.state]||"?"} at ${h[0].toFixed(5)}, ${h[1].toFixed(5)}`:`${picked}`;}
        function pick(id){picked=id;document.getElementById("app").value=id;showPicked();showTree(id);}
        async function showTree(id){const out=document.getElementById("tree");out.textContent="asking the process that runs it…";
         try{const r=await fetch("/rib/"+encodeURIComponent(id));if(!r.ok){out.textContent=await r.text();return;}const t=await r.json();
          const lines=[];(function walk(n,d){lines.push(`${"  ".repeat(d)}${n.name}${n.active?"":" (inactive)"}${n.screen?"  · "+n.screen:""}`);(n.children||[]).forEach(c=>walk(c,d+1));})(t.tree,0);
          out.textContent=`${t.app} on ${t.process}, ${t.leaks} leaks\n`+lines.join("\n");}catch(e){out.textContent=String(e);}}
        document.getElementById("app").addEventListener("change",e=>pick(e.target.value.trim()));
        canvas.addEventListener("click",e=>{let best=null,dist=64;const t=simNow();for(const d of city.drivers.values()){const h=here(d,t);if(!h[0])continue;const p=project(h[0],h[1]);
         const dd=(p[0]-e.offsetX)**2+(p[1]-e.offsetY)**2;if(dd<dist){dist=dd;best=d.id;}}if(best)pick(best);});
        let drag=null;canvas.addEventListener("mousedown",e=>drag=[e.clientX,e.clientY]);window.addEventListener("mouseup",()=>drag=null);
        window.addEventListener("mousemove",e=>{if(!drag)return;view.x+=e.clientX-drag[0];view.y+=e.clientY-drag[1];drag=[e.clientX,e.clientY];streets=null;});
        canvas.addEventListener("wheel",e=>{e.preventDefault();const f=e.deltaY<0?1.2:1/1.2;view.x=(view.x-(e.offsetX-canvas.width/2))*f+(e.offsetX-canvas.width/2);
         view.y=(view.y-(e.offsetY-canvas.height/2))*f+(e.offsetY-canvas.height/2);view.scale*=f;streets=null;},{passive:false});
        window.addEventListener("resize",resize);
        function connect(){const ws=new WebSocket(`ws://${location.host}/live`);ws.onmessage=m=>apply(JSON.parse(m.data));
         ws.onclose=()=>{document.getElementById("status").textContent=city.summary?"run ended":"connection lost, retrying…";if(!city.summary)setTimeout(connect,1000);};}
        (async()=>{info=await (await fetch("/info.json")).json();document.getElementById("title").textContent="ribcity · "+info.title;
         city.map=await (await fetch("/map.json")).json();resize();connect();(function loop(){if(dirty)render(performance.now()-chartsAt>250);draw();requestAnimationFrame(loop);})();})();
        </script></body></html>
        """#
}
